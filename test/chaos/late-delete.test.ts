import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { StoredCampaign } from "../../src/simulator/store.ts";
import { contactsCsv, drop, phoneOf, waitFor } from "../support/daemon.ts";
import { chaosCampaignJob, untilStopped, useProxiedChaos } from "./chaos-setup.ts";

/**
 * Issue 42 item 3: deletes are fenced like creates. The start check of a file's campaign finds an
 * extra copy of a phone and is about to delete it when its process is stopped (SIGSTOP at its
 * fault point), past its job's lock and the check's lock (VCW_LOCK_MS); a second daemon takes the job
 * over, checks again and deletes the copy; another owner then adds a contact. Resumed, the first
 * process deletes nothing: no delete leaves it (its own proxy counts them), nothing is removed.
 */
describe("chaos: a start check stopped right before its delete", () => {
  const { t, running, proxy: startProxy } = useProxiedChaos();

  it("deletes nothing once resumed: the other daemon's check stands, the later contact stays", async () => {
    const deletes: number[] = [];
    const proxy = await startProxy((req) => {
      if (req.method === "DELETE") deletes.push(Date.now());
      return undefined;
    });
    // A settle time of 20 s: the campaign starts 20 s after its create, checked 5 s before, time
    // enough for the other daemon to take the check over (locks of 1 s) before the start.
    const { inbox, tag, start, campaignsNamed } = await chaosCampaignJob(t, running, {
      env: { VCW_SETTLE_MS: "20000" },
    });
    const paused = start("start", { VCS_BASE_URL: proxy.url, VCW_FAILPOINTS: "delete.before-send=stop@1" });
    const file = `delete-${tag}.csv`;
    drop(inbox, file, contactsCsv(5, { from: 52_000 }));
    const [made] = await waitFor(
      async () => {
        const listed = await campaignsNamed(`chaos-${tag}-${file}`);
        return listed.length > 0 ? listed : undefined;
      },
      60_000,
      "the campaign",
    );
    // The other daemon, started now and stopped once running (long before the check, due 15 s after
    // the create): resumed when the first stops, it takes the check over without a start to wait for
    // (a start under a full suite's load could take most of the check's 5 s lead: two CI runs here
    // timed out waiting for the delete, a check after the start deleting nothing).
    const other = start("worker");
    await waitFor(
      () => (other.logs().includes("vcw worker running") ? true : undefined),
      30_000,
      "the worker",
    );
    other.child.kill("SIGSTOP");
    const segmentId = t.sim.store.get<StoredCampaign>("campaigns", made!.id!).segmentId;
    // A second copy of a phone (a contact create applied late): the check deletes it.
    await t.client.contacts.create(segmentId, { phone: phoneOf(52_000) });
    await untilStopped(paused);
    other.child.kill("SIGCONT");
    const phones = async () => (await t.client.contacts.list(segmentId)).map((c) => c.phone!);
    // The other daemon's check, once the stopped one's lock has lapsed, deletes the copy.
    await waitFor(
      async () => ((await phones()).length === 5 ? true : undefined),
      120_000,
      "the copy deleted",
    );
    // Another owner adds a contact after that check.
    await t.client.contacts.create(segmentId, { phone: phoneOf(52_100) });
    const before = (await t.client.contacts.list(segmentId)).map((c) => c.id).sort();
    const resumedAt = Date.now();
    paused.child.kill("SIGCONT");
    await sleep(5_000);
    expect(
      deletes.filter((at) => at >= resumedAt),
      paused.logs(),
    ).toEqual([]);
    expect((await t.client.contacts.list(segmentId)).map((c) => c.id).sort()).toEqual(before);
    expect(new Set(await phones()).size).toBe(6);
    expect(paused.logs()).toMatch(/lost its lock|was not sent/);
    expect(other.logs()).toContain("repaired before its start");
  }, 240_000);
});
