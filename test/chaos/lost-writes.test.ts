import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { type RedisServer, startRedisServer } from "../../src/daemon/redis-server.ts";
import { contactsCsv, drop, summaryOf, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { audiencePhones } from "../support/window-close.ts";
import { chaosCampaignJob, gate, onCampaignCreates, useProxiedChaos } from "./chaos-setup.ts";

/** The daemon's "campaign ready" lines: each attempt that created or found a campaign. */
function readyLines(logs: string): { campaign: string; scheduledAt: string }[] {
  return logs.split("\n").flatMap((line) => {
    if (!line.includes('"campaign ready"')) return [];
    return [JSON.parse(line) as { campaign: string; scheduledAt: string }];
  });
}

/** Redis as `appendfsync everysec` leaves it: the append-only file flushed once a second. */
const EVERYSEC = ["--appendfsync", "everysec"];

/**
 * Issue 42 item 6: Redis loses its last writes (`appendfsync everysec` on a machine that crashes,
 * or an asynchronous replica promoted). A SIGKILL alone loses nothing (the kernel keeps what Redis
 * wrote), so the loss is made exact: the append-only files are copied while a campaign job waits
 * in its queue, and put back after it ran, as a crash whose last fsync was at the copy. The job
 * runs again as a first attempt: its take, its create's sent mark and id are lost.
 */
describe("chaos: Redis loses the writes of a queued campaign job's create", () => {
  const { t, running, proxy: startProxy } = useProxiedChaos();
  let server: RedisServer | undefined;
  afterEach(async () => {
    await server?.stop("SIGKILL");
    server = undefined;
  });

  it("one copy of each campaign, each person called once", async () => {
    const dir = tempDir("vcw-lost-writes-");
    server = await startRedisServer({ persist: true, dir, extraArgs: EVERYSEC });
    const port = server.port;
    // The first two creates are held (the daemon makes two campaigns at once): the third file's
    // campaign job waits in its queue meanwhile.
    const { opened, open } = gate();
    let creates = 0;
    const proxy = await startProxy(
      onCampaignCreates((n) => {
        creates = n;
        return n <= 2 ? { pass: true, holdUntil: opened } : undefined;
      }),
    );
    // A request timeout of 10 s: the held creates are answered, not given up. A settle time of 8 s:
    // the copies start 8 s after their creates, time for Redis to come back first.
    const { inbox, tag, start, campaignsNamed } = await chaosCampaignJob(t, running, {
      env: {
        REDIS_URL: server.url,
        VCS_BASE_URL: proxy.url,
        VCW_REQUEST_TIMEOUT_MS: "10000",
        VCW_SETTLE_MS: "8000",
      },
    });
    const daemon = start("start");
    const files = [1, 2, 3].map((n) => `lost-${n}-${tag}.csv`);
    for (const [n, file] of files.entries()) drop(inbox, file, contactsCsv(10, { from: 46_000 + n * 100 }));
    const prefix = `chaos-${tag}-lost-`;
    // Every file settled (its campaign job queued), two creates held.
    await waitFor(
      () => (files.every((f) => summaryOf(inbox, f)) && creates === 2 ? true : undefined),
      60_000,
      "three files settled, two creates held",
    );
    daemon.child.kill("SIGSTOP");
    await sleep(300); // Redis has written what it was sent
    const aof = join(dir, "appendonlydir");
    cpSync(aof, join(dir, "at-the-crash"), { recursive: true });
    daemon.child.kill("SIGCONT");
    open();
    await waitFor(
      async () => ((await campaignsNamed(prefix)).length === 3 ? true : undefined),
      60_000,
      "three campaigns created",
    );
    await sleep(1_500); // their ids remembered, registered: all lost next
    await server.stop("SIGKILL");
    rmSync(aof, { recursive: true });
    cpSync(join(dir, "at-the-crash"), aof, { recursive: true });
    server = await startRedisServer({ port, persist: true, dir, extraArgs: EVERYSEC });

    // Every copy started: one re-sent starts 8 s after its create, a repair's 8 s after the check.
    const allStarted = async () =>
      (await campaignsNamed(prefix)).every((c) => c.is_started) ? true : undefined;
    await sleep(3_000);
    await waitFor(allStarted, 60_000, "every copy started");
    await sleep(12_000); // a copy created late, or a repair, would show now
    await waitFor(allStarted, 30_000, "every copy started, repairs too");
    const all = await campaignsNamed(prefix);
    const called = (await Promise.all(all.map((c) => audiencePhones(t.client, c.id!)))).flat();
    const counts = { created: all.length, called: called.length, distinct: new Set(called).size };
    const summaries = files.map(
      (f) => (summaryOf(inbox, f) as { checksBeforeStart?: unknown })?.checksBeforeStart,
    );
    console.info("lost writes:", JSON.stringify({ counts, summaries }));
    expect(counts, daemon.logs()).toEqual({ created: 3, called: 30, distinct: 30 });
    // Each campaign registered with the start it was made with, whichever attempt found it.
    const ready = readyLines(daemon.logs());
    for (const r of ready)
      expect(r.scheduledAt).toBe(ready.find((x) => x.campaign === r.campaign)?.scheduledAt);
  }, 150_000);
});
