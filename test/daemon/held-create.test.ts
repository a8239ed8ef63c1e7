import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { useCallingDaemon } from "../support/calling-daemon.ts";
import { contactsCsv, drop, phoneOf, testSettings, waitFor } from "../support/daemon.ts";
import type { TestServer } from "../support/http-server.ts";
import { startProxy } from "../support/proxy.ts";

/**
 * Issue 42 item 2: a campaign create held in a queue longer than the request timeout (9 s; timeout
 * 2 s) but within the settle time (15 s) lands with the start that was sent. vcw registered the
 * start of the attempt that found it (17 s late) and checked after the real start: a number put on
 * the suppression list a second after the create was called.
 */
describe("a campaign create held within the settle time", () => {
  // Real time: the simulator starts the campaign when the real clock reaches scheduled_at.
  const h = useCallingDaemon({ timeScale: 1 });
  let proxy: TestServer | undefined;
  h.afterDaemons(() => proxy?.close());

  it("is checked before the start it was sent with: a number suppressed a second after the create is not called", async () => {
    let held = 0;
    proxy = await startProxy(h.t.sim.url, (req) =>
      req.method === "POST" && req.url!.endsWith("/campaign/create") && held++ === 0
        ? { holdMs: 9_000 }
        : undefined,
    );
    const { home, inbox, name } = h.callingJob({ byId: true });
    // Creates time out after 2 s (testSettings); a create may land up to 15 s after it was sent.
    const daemon = await h.start(testSettings(home, proxy.url, { VCW_SETTLE_MS: "15000" }));
    drop(inbox, "held.csv", contactsCsv(3, { from: 42_000 }));
    const create = await waitFor(
      () => proxy!.requests.find((r) => r.url.endsWith("/campaign/create")),
      30_000,
      "the campaign create",
    );
    const sentStart = Date.parse(String(JSON.parse(create.body).scheduled_at));
    await sleep(1_000);
    await daemon.stores.suppression.add([phoneOf(42_000)]);

    const campaign = await waitFor(
      async () =>
        (await h.t.client.campaigns.list()).find((c) => c.campaigns_name?.startsWith(name) && c.is_started),
      60_000,
      "the campaign's start",
    );
    const stored = await waitFor(async () => {
      const s = await daemon.stores.store.get(campaign.id!);
      return s?.startCheck ? s : undefined;
    }, 30_000);
    expect(Date.parse(stored.info.scheduledAt)).toBe(sentStart);
    expect(Date.parse(stored.startCheck!.at)).toBeLessThan(sentStart);
    expect(stored.startCheck).toMatchObject({ withdrawn: 1, campaignsListed: 1 });
    const called = (await h.t.client.campaigns.audiences(campaign.id!)).map((e) => e.phone);
    expect(called.sort()).toEqual([phoneOf(42_001), phoneOf(42_002)]);
    expect(held).toBe(1);
  }, 90_000);
});
