import { setTimeout as sleep } from "node:timers/promises";
import { Cluster } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { type RedisServer, startRedisServer } from "../../src/daemon/redis-server.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { NO_FAULTS } from "../../src/simulator/faults.ts";
import type { VcwProcess } from "../support/cli.ts";
import { contactsCsv, drop, summaryOf, waitFor } from "../support/daemon.ts";
import { type LocalCluster, startLocalCluster } from "../support/redis-cluster.ts";
import { useSimulator } from "../support/simulator.ts";
import { chaosJob, copiesOf, keepLogs, untilStopped } from "./chaos-setup.ts";

/**
 * The moments the code's reading shows to be dangerous, each held open on purpose: a process that
 * stops itself at a fault point (src/lib/failpoint.ts) right between checking it owns a create and
 * sending it, or right before the check while Redis loses everything.
 */
describe("chaos: a create held between its claim, its check and its send", () => {
  const t = useSimulator();
  const running: VcwProcess[] = [];
  let server: RedisServer | undefined;
  let local: LocalCluster | undefined;
  afterEach(async (ctx) => {
    keepLogs(ctx.task.name, running);
    for (const p of running.splice(0)) p.child.kill("SIGKILL");
    await server?.stop("SIGKILL");
    server = undefined;
    await local?.stop();
    local = undefined;
    t.sim.setFaults(NO_FAULTS);
  });

  it("paused between the ownership check and the send, past the lease and the settle time: the create is not sent", async () => {
    t.sim.setFaults({ ...NO_FAULTS, latencyMs: 10, jitterMs: 10 });
    const job = await chaosJob(t.sim, running, { env: { VCW_RATE_LIMIT: "100" } });
    const first = job.start("start", { VCW_FAILPOINTS: "send.after-fence=stop@150" });
    drop(job.inbox, "held.csv", contactsCsv(600, { from: 400_000 }));
    await untilStopped(first);
    job.start("worker");
    // Lease 2.5 s and settle 4 s: the worker has taken the held contact over and sent it by then.
    await sleep(12_000);
    first.child.kill("SIGCONT");
    const summary = await waitFor(() => summaryOf(job.inbox, "held.csv"), 90_000, "held.csv done");
    await sleep(2_000);
    expect(copiesOf(t.sim, job.segmentId)).toEqual({ total: 600, distinct: 600 });
    expect(summary.status).toBe("imported");
    expect(first.logs()).toMatch(/lost its lock|was not sent|import stopped/);
  }, 120_000);

  it("Redis restarted empty between a claim and its send: the ledger is learnt again, nothing twice", async () => {
    t.sim.setFaults({ ...NO_FAULTS, latencyMs: 10, jitterMs: 10 });
    server = await startRedisServer();
    const job = await chaosJob(t.sim, running, { env: { VCW_RATE_LIMIT: "100" }, redisUrl: server.url });
    const daemon = job.start("start", { VCW_FAILPOINTS: "send.before-fence=stop@200" });
    drop(job.inbox, "wiped.csv", contactsCsv(600, { from: 500_000 }));
    await untilStopped(daemon);
    const port = server.port;
    await server.stop("SIGKILL");
    server = await startRedisServer({ port });
    daemon.child.kill("SIGCONT");
    const summary = await waitFor(() => summaryOf(job.inbox, "wiped.csv"), 100_000, "wiped.csv done");
    await sleep(2_000);
    expect(copiesOf(t.sim, job.segmentId)).toEqual({ total: 600, distinct: 600 });
    expect(summary.status).toBe("imported");
  }, 120_000);

  it("a Redis Cluster failover between a claim and its send: every phone once", async () => {
    t.sim.setFaults({ ...NO_FAULTS, latencyMs: 10, jitterMs: 10 });
    // Three masters with a replica each; a replica takes over a second after its master dies.
    local = await startLocalCluster(3, { replicas: 1, nodeTimeoutMs: 1_000 });
    const nodes = local.nodes;
    const job = await chaosJob(t.sim, running, {
      env: { VCW_RATE_LIMIT: "100", REDIS_CLUSTER_NODES: nodes, REDIS_URL: "" },
    });
    const daemon = job.start("start", { VCW_FAILPOINTS: "send.before-fence=stop@200" });
    drop(job.inbox, "failover.csv", contactsCsv(600, { from: 600_000 }));
    await untilStopped(daemon);
    // The master holding the segment's ledger (its claims) dies; its replica is promoted.
    const cluster = new Cluster(
      nodes.split(",").map((n) => ({ host: "127.0.0.1", port: Number(n.split(":")[1]) })),
    );
    try {
      const slot = Number(await cluster.cluster("KEYSLOT", redisKeys(job.prefix).ledger(job.segmentId)));
      const owner = cluster.slots[slot]![0]!;
      local.servers.find((s) => `127.0.0.1:${s.port}` === owner)!.process.kill("SIGKILL");
      // Past the node timeout (1 s) the replica is elected; the cluster says ok again once it is.
      await sleep(2_000);
      await waitFor(
        async () => ((await cluster.cluster("INFO")).includes("cluster_state:ok") ? true : undefined),
        30_000,
        "the replica promoted",
      );
    } finally {
      cluster.disconnect();
    }
    daemon.child.kill("SIGCONT");
    const summary = await waitFor(() => summaryOf(job.inbox, "failover.csv"), 100_000, "failover.csv done");
    await sleep(2_000);
    expect(copiesOf(t.sim, job.segmentId)).toEqual({ total: 600, distinct: 600 });
    expect(summary.status).toBe("imported");
  }, 180_000);
});
