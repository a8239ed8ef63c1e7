import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Cluster } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { runCli } from "../support/cli.ts";
import { contactsCsv, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { API_KEY } from "../support/fixtures.ts";
import { type LocalCluster, startLocalCluster } from "../support/redis-cluster.ts";
import { useSimulator } from "../support/simulator.ts";

/**
 * Issue 17, item 5: `vcw import` rides out a Redis Cluster failover. Three masters with a replica
 * each and a one-second cluster-node-timeout; the master holding the import's ledger is killed
 * mid-import: its replica takes over, and the import ends with every contact created once.
 */
describe("vcw import through a Redis Cluster failover", () => {
  const t = useSimulator({ faults: { latencyMs: 15 } });
  let local: LocalCluster;
  let cluster: Cluster;

  beforeAll(async () => {
    local = await startLocalCluster(3, { replicas: 1, nodeTimeoutMs: 1_000 });
    cluster = new Cluster(
      local.nodes.split(",").map((n) => ({ host: "127.0.0.1", port: Number(n.split(":")[1]) })),
    );
  }, 60_000);
  afterAll(async () => {
    cluster?.disconnect();
    await local?.stop();
  });

  it("killing the master that holds the ledger mid-import: exit 0, each contact created once", async () => {
    const home = tempDir("vcw-failover-");
    const prefix = `vcw-test-${randomBytes(4).toString("hex")}`;
    const env = {
      REDIS_CLUSTER_NODES: local.nodes,
      REDIS_URL: "",
      VCS_BASE_URL: t.sim.url,
      VCS_API_KEY: API_KEY,
      VCW_JOBS_DIR: join(home, "jobs"),
      VCW_HOME: join(home, ".vcw"),
      VCW_PREFIX: prefix,
    };
    const n = 400;
    const file = join(home, "big.csv");
    writeFileSync(file, contactsCsv(n, { from: 50_000 }));
    const segment = `failover-${randomBytes(3).toString("hex")}`;
    const args = ["import", file, "--segment", segment, "--country", "US", "--json"];
    const importing = runCli(args, env, 150_000);

    // Mid-import: the segment exists and some of its contacts are in.
    const segmentId = await waitFor(
      async () => {
        const found = (await t.client.segments.list()).find((s) => s.name === segment);
        if (!found?.id) return undefined;
        return (await t.client.contacts.list(found.id)).length >= 50 ? found.id : undefined;
      },
      60_000,
      "the import under way",
    );
    const slot = Number(await cluster.cluster("KEYSLOT", redisKeys(prefix).ledger(segmentId)));
    const owner = cluster.slots[slot]![0]!;
    const victim = local.servers.find((s) => `127.0.0.1:${s.port}` === owner)!;
    expect(victim).toBeDefined();
    victim.process.kill("SIGKILL");
    const contactsAtKill = (await t.client.contacts.list(segmentId)).length;
    expect(contactsAtKill).toBeLessThan(n);

    const result = await importing;
    expect(result.stderr).not.toMatch(/Too many Cluster redirections/);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: "imported", created: n, known: 0 });
    const phones = (await t.client.contacts.list(segmentId)).map((c) => c.phone);
    expect(phones).toHaveLength(n);
    expect(new Set(phones).size).toBe(n);

    // Run again on the cluster as it is now (the replica promoted): nothing new.
    const again = await runCli(args, env, 60_000);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, known: n });
  }, 240_000);
});
