import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { type RedisServer, startRedisServer } from "../../src/daemon/redis-server.ts";

const run = promisify(execFile);

export interface LocalCluster {
  /** `127.0.0.1:port,...`, as REDIS_CLUSTER_NODES takes it. */
  nodes: string;
  servers: RedisServer[];
  stop(): Promise<void>;
}

/**
 * A real Redis Cluster on loopback: `masters` redis-servers with `--cluster-enabled yes`, joined by
 * `redis-cli --cluster create`, with `replicas` replicas per master (none unless asked) and the
 * given `cluster-node-timeout`. Ready once every node says cluster_state:ok.
 */
export async function startLocalCluster(
  masters = 3,
  o: { replicas?: number; nodeTimeoutMs?: number } = {},
): Promise<LocalCluster> {
  const replicas = o.replicas ?? 0;
  const dir = mkdtempSync(join(tmpdir(), "vcw-cluster-"));
  const servers: RedisServer[] = [];
  const stop = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters * (1 + replicas); i++) {
      servers.push(
        await startRedisServer({
          dir: join(dir, String(i)),
          extraArgs: [
            "--cluster-enabled",
            "yes",
            "--cluster-node-timeout",
            String(o.nodeTimeoutMs ?? 2000),
            // A replica syncs at once (the default waits 5 s for more replicas to share a transfer).
            "--repl-diskless-sync-delay",
            "0",
          ],
        }),
      );
    }
    const addresses = servers.map((s) => `127.0.0.1:${s.port}`);
    await run("redis-cli", [
      "--cluster",
      "create",
      ...addresses,
      "--cluster-replicas",
      String(replicas),
      "--cluster-yes",
    ]);
    for (const s of servers) await waitClusterOk(s.url);
    // A replica that never synced may not take over (cluster-replica-validity-factor): a failover
    // test must start with every replica in sync.
    if (replicas > 0) for (const s of servers) await waitReplicaInSync(s.url);
    return { nodes: addresses.join(","), servers, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitClusterOk(url: string): Promise<void> {
  const redis = new Redis(url);
  try {
    const deadline = Date.now() + 20_000;
    while (!(await redis.cluster("INFO")).includes("cluster_state:ok")) {
      if (Date.now() > deadline) throw new Error(`cluster node ${url} did not reach cluster_state:ok`);
      await sleep(100);
    }
  } finally {
    redis.disconnect();
  }
}

/** Returns once a replica's link to its master is up (a master returns at once). */
async function waitReplicaInSync(url: string): Promise<void> {
  const redis = new Redis(url);
  try {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const info = await redis.info("replication");
      if (info.includes("role:master") || info.includes("master_link_status:up")) return;
      if (Date.now() > deadline) throw new Error(`replica ${url} did not sync with its master`);
      await sleep(100);
    }
  } finally {
    redis.disconnect();
  }
}
