import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { type RedisServer, startRedisServer } from "../../src/daemon/redis-server.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { NO_FAULTS } from "../../src/simulator/faults.ts";
import { spawnVcw, type VcwProcess } from "../support/cli.ts";
import { contactsCsv, drop, phoneOf, shortLeaseEnv, summaryOf, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { useSimulator } from "../support/simulator.ts";

/**
 * A Redis without persistence restarted in the middle of an import: everything vcw kept is gone.
 * That may cost time, never a duplicate, and the file never stalls in processing/.
 */
describe("a Redis that lost its data", () => {
  const t = useSimulator();
  const running: VcwProcess[] = [];
  let server: RedisServer | undefined;
  afterEach(async () => {
    for (const p of running.splice(0)) p.child.kill("SIGKILL");
    await server?.stop("SIGKILL");
  });

  async function setup() {
    t.sim.setFaults({ ...NO_FAULTS, latencyMs: 15, jitterMs: 10 });
    server = await startRedisServer();
    const home = tempDir("vcw-loss-");
    const inbox = join(home, "inbox");
    const segmentId = (await t.client.segments.create({ name: `loss-${randomBytes(3).toString("hex")}` }))
      .id!;
    mkdirSync(join(home, "jobs"));
    writeFileSync(
      join(home, "jobs", "loss.yaml"),
      `name: loss\ninbox: ${inbox}\nsegment:\n  id: ${segmentId}\ncontacts:\n  country: US\n`,
    );
    const prefix = `vcw-test-${randomBytes(4).toString("hex")}`;
    const start = () => {
      const p = spawnVcw(["start"], {
        ...shortLeaseEnv(home, t.sim.url, prefix),
        REDIS_URL: server!.url,
        VCW_RATE_LIMIT: "300",
        VCW_RESCAN_MS: "1000",
      });
      running.push(p);
      return p;
    };
    const ledgerSize = async () => {
      const r = new Redis(server!.url, { maxRetriesPerRequest: 1 });
      try {
        return await r.hlen(redisKeys(prefix).ledger(segmentId));
      } catch {
        return 0;
      } finally {
        r.disconnect();
      }
    };
    /** Redis killed and started again on its port with nothing in it. */
    const wipeRedis = async () => {
      const port = server!.port;
      await server!.stop("SIGKILL");
      server = await startRedisServer({ port });
    };
    return { inbox, segmentId, start, ledgerSize, wipeRedis };
  }

  async function expectEachOnce(segmentId: string, from: number, n: number) {
    t.sim.setFaults(NO_FAULTS);
    const phones = (await t.client.contacts.list(segmentId)).map((c) => c.phone!);
    expect(phones).toHaveLength(n);
    expect(new Set(phones)).toEqual(new Set(Array.from({ length: n }, (_, i) => phoneOf(from + i))));
  }

  it("restarted empty with the daemon: the file is imported again, each contact exactly once", async () => {
    const s = await setup();
    s.start();
    drop(s.inbox, "big.csv", contactsCsv(3_000, { from: 40_000 }));
    await waitFor(async () => ((await s.ledgerSize()) >= 600 ? true : undefined), 60_000, "600 sent");
    for (const p of running.splice(0)) p.child.kill("SIGKILL");
    const atKill = (await t.client.contacts.list(s.segmentId)).length;
    await s.wipeRedis();
    const second = s.start();
    const summary = await waitFor(() => summaryOf(s.inbox, "big.csv"), 90_000, "big.csv in done/");
    expect(summary.status).toBe("imported");
    // Learnt from the service, not sent again: every contact it had at the SIGKILL. The ledger
    // counted claims, and a batch of rows read ahead (64) is claimed before its requests, up to
    // import.concurrency (8) of them in flight (decision 0068).
    expect(atKill).toBeGreaterThanOrEqual(600 - 8 - 64);
    expect(summary.known).toBeGreaterThanOrEqual(atKill);
    expect(second.logs()).not.toContain('"level":50');
    await expectEachOnce(s.segmentId, 40_000, 3_000);
  }, 150_000);

  it("restarted empty under a running daemon: noticed, the file taken up again, each contact exactly once", async () => {
    const s = await setup();
    const daemon = s.start();
    drop(s.inbox, "big.csv", contactsCsv(3_000, { from: 50_000 }));
    await waitFor(async () => ((await s.ledgerSize()) >= 600 ? true : undefined), 60_000, "600 sent");
    await s.wipeRedis();
    await waitFor(() => summaryOf(s.inbox, "big.csv"), 90_000, "big.csv in done/");
    expect(daemon.logs()).toContain("Redis lost its data");
    await expectEachOnce(s.segmentId, 50_000, 3_000);
  }, 150_000);
});
