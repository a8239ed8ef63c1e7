import { cpSync, existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { type RedisServer, startRedisServer } from "../../src/daemon/redis-server.ts";
import { contactsCsv, drop, summaryOf, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { audiencePhones } from "../support/window-close.ts";
import { chaosCampaignJob, useProxiedChaos } from "./chaos-setup.ts";

/** Redis as `appendfsync everysec` leaves it: the append-only file flushed once a second. */
const EVERYSEC = ["--appendfsync", "everysec"];

/**
 * Issue 42 item 6: Redis loses its last writes (`appendfsync everysec` on a machine that crashes,
 * or an asynchronous replica promoted). A SIGKILL alone loses nothing (the kernel keeps what Redis
 * wrote), so the loss is made exact: the append-only files are copied while the daemon is stopped
 * mid-import, and put back after the campaign was created (as a crash whose last fsync was then).
 * The campaign's job, its create, its memo and sent mark are all lost: the import runs again, and
 * the campaign job is a first attempt.
 */
describe("chaos: Redis loses the writes of the campaign's create", () => {
  const { t, running } = useProxiedChaos();
  let server: RedisServer | undefined;
  afterEach(async () => {
    for (const p of running.splice(0)) p.child.kill("SIGKILL");
    await server?.stop("SIGKILL");
    server = undefined;
  });

  it("one copy of the campaign, each person called once, every call counted", async () => {
    const dir = tempDir("vcw-lost-writes-");
    server = await startRedisServer({ persist: true, dir, extraArgs: EVERYSEC });
    const port = server.port;
    // A settle time of 8 s: the copy starts 8 s after its create, time for Redis to come back first.
    // A rate of 20 requests a second: the import of 40 lasts about 2 s, a moment to copy Redis' files.
    const { inbox, tag, start, campaignsNamed } = await chaosCampaignJob(t, running, {
      env: { REDIS_URL: server.url, VCW_SETTLE_MS: "8000", VCW_RATE_LIMIT: "20" },
    });
    const daemon = start("start");
    const file = `lost-${tag}.csv`;
    const prefix = `chaos-${tag}-${file}`;
    drop(inbox, file, contactsCsv(40, { from: 46_000 }));
    await waitFor(
      () => {
        const processing = join(inbox, "processing");
        return existsSync(processing) && readdirSync(processing).length > 0 ? true : undefined;
      },
      30_000,
      "the file in processing/",
    );
    daemon.child.kill("SIGSTOP");
    await sleep(300); // Redis has written what it was sent
    expect(await campaignsNamed(prefix)).toEqual([]);
    const aof = join(dir, "appendonlydir");
    cpSync(aof, join(dir, "at-the-crash"), { recursive: true });
    daemon.child.kill("SIGCONT");
    await waitFor(
      async () => ((await campaignsNamed(prefix)).length > 0 ? true : undefined),
      60_000,
      "the campaign created",
    );
    await sleep(1_500); // its id remembered, registered: all lost next
    await server.stop("SIGKILL");
    rmSync(aof, { recursive: true });
    cpSync(join(dir, "at-the-crash"), aof, { recursive: true });
    server = await startRedisServer({ port, persist: true, dir, extraArgs: EVERYSEC });

    const summary = await waitFor(
      () => {
        const s = summaryOf(inbox, file) as { checksBeforeStart?: unknown } | undefined;
        return s?.checksBeforeStart ? s : undefined;
      },
      80_000,
      "the summary with its check",
    );
    const copies = await waitFor(
      async () => {
        const listed = await campaignsNamed(prefix);
        return listed.length > 0 && listed.every((c) => c.is_started) ? listed : undefined;
      },
      30_000,
      "every copy started",
    );
    const called = (await Promise.all(copies.map((c) => audiencePhones(t.client, c.id!)))).flat();
    const counts = { created: copies.length, called: called.length, distinct: new Set(called).size };
    console.info("lost writes:", JSON.stringify({ counts, summary }));
    expect(counts, daemon.logs()).toEqual({ created: 1, called: 40, distinct: 40 });
  }, 150_000);
});
