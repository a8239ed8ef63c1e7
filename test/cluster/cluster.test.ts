import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Cluster } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { clusterTarget, connectRedis } from "../../src/lib/redis.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { QUEUE_NAMES } from "../../src/queue/queues.ts";
import { NO_FAULTS } from "../../src/simulator/faults.ts";
import { runCli } from "../support/cli.ts";
import {
  contactsCsv,
  drop,
  phoneOf,
  quietLogger,
  summaryOf,
  testSettings,
  waitFor,
} from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { API_KEY, validAssistant, validDialer } from "../support/fixtures.ts";
import { useSimulator } from "../support/simulator.ts";

/** The daemon, the CLI and the exactly-once import on a real 3-master Redis Cluster. */
describe("Redis Cluster", () => {
  const t = useSimulator({ timeScale: 600 });
  const nodes = inject("clusterNodes");
  const cluster = connectRedis(clusterTarget(nodes)) as Cluster;
  let daemon: Daemon | undefined;
  let assistant: string;
  let dialer: string;

  beforeAll(async () => {
    assistant = (await t.client.assistants.create(validAssistant())).id!;
    dialer = (await t.client.dialers.create(validDialer())).id!;
  });
  afterEach(async () => {
    t.sim.setFaults(NO_FAULTS);
    await daemon?.close();
    daemon = undefined;
  });
  afterAll(async () => {
    await cluster.quit();
  });

  function setup() {
    const home = tempDir("vcw-cluster-");
    const inbox = join(home, "inbox");
    const name = `clu-${randomBytes(3).toString("hex")}`;
    mkdirSync(join(home, "jobs"), { recursive: true });
    writeFileSync(
      join(home, "jobs", "job.yaml"),
      [
        `name: ${name}`,
        `inbox: ${inbox}`,
        `segment: { name: "${name} {file}" }`,
        "contacts: { country: US }",
        `campaign: { assistant: { id: ${assistant} }, dialer: { id: ${dialer} }, start: asap }`,
        'polling: { schedule: "* * * * * *" }',
      ].join("\n"),
    );
    const settings = testSettings(home, t.sim.url, { REDIS_CLUSTER_NODES: nodes });
    return { home, inbox, name, settings };
  }

  /** vcw's keys on each master (SCAN on every node of the cluster). */
  async function keysPerMaster(prefix: string): Promise<number[]> {
    return Promise.all(
      cluster.nodes("master").map(async (node) => {
        let cursor = "0";
        let count = 0;
        do {
          const [next, keys] = await node.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
          cursor = next;
          count += keys.length;
        } while (cursor !== "0");
        return count;
      }),
    );
  }

  it("imports exactly once under faults, and polls the file's campaign to the end, over several masters", async () => {
    t.sim.setFaults({ ...NO_FAULTS, latencyMs: 2, commitThenFailRate: 0.15, commitThenFailMode: "mixed" });
    const s = setup();
    daemon = await startDaemon({ settings: s.settings, logger: quietLogger(), watch: true, work: true });
    await daemon.ready;
    drop(s.inbox, "leads.csv", contactsCsv(300, { from: 90_000, extra: ["not a phone,Bad,b@example.com"] }));
    const summary = await waitFor(() => summaryOf(s.inbox, "leads.csv"), 60_000, "leads.csv imported");
    expect(summary.status).toBe("imported");
    expect(summary.totals.valid).toBe(300);
    expect(summary.totals.rejected).toBe(1);
    t.sim.setFaults(NO_FAULTS);

    const phones = (await t.client.contacts.list(summary.segment!.id)).map((c) => c.phone);
    expect(phones).toHaveLength(300);
    expect(new Set(phones)).toEqual(new Set(Array.from({ length: 300 }, (_, i) => phoneOf(90_000 + i))));

    const store = daemon.stores.store;
    const [id] = await waitFor(async () => {
      const all = await store.allOf(s.name);
      return all.length > 0 ? all : undefined;
    }, 30_000);
    const done = await waitFor(
      async () => {
        const c = await store.get(id!);
        return c && c.info.state !== "active" ? c : undefined;
      },
      60_000,
      "campaign polled to the end",
    );
    expect(done.info.state).toBe("finished");
    expect(done.totals.contacts).toBe(300);
    expect(done.totals.final).toBe(300);

    // The work spread: vcw's keys sit on more than one master (queues, ledgers, campaigns have their own tags).
    const perMaster = await keysPerMaster(s.settings.prefix.value);
    expect(perMaster.filter((n) => n > 0).length, `keys per master: ${perMaster}`).toBeGreaterThan(1);
  }, 120_000);

  it("each queue has its own hash tag, so the queues spread over the masters", async () => {
    const keys = redisKeys("vcw");
    const owners = new Set<string>();
    for (const queue of Object.values(QUEUE_NAMES)) {
      const slot = Number(await cluster.cluster("KEYSLOT", `${keys.queue(queue)}:${queue}:wait`));
      owners.add(cluster.slots[slot]![0]!);
    }
    expect(owners.size).toBeGreaterThan(1);
  });

  it("the CLI works on the cluster: suppress, import (suppression included), status", async () => {
    const s = setup();
    const env = {
      REDIS_CLUSTER_NODES: nodes,
      REDIS_URL: "",
      VCS_BASE_URL: t.sim.url,
      VCS_API_KEY: API_KEY,
      VCW_JOBS_DIR: join(s.home, "jobs"),
      VCW_HOME: join(s.home, ".vcw"),
      VCW_PREFIX: s.settings.prefix.value,
    };
    expect((await runCli(["suppress", "add", phoneOf(70_001)], env)).code).toBe(0);
    const file = join(s.home, "cli.csv");
    writeFileSync(file, contactsCsv(5, { from: 70_000 }));
    const imported = await runCli(["import", file, "--job", s.name, "--json"], env);
    expect(imported.stderr).toBe("");
    const result = JSON.parse(imported.stdout) as { created: number; totals: { skipped: number } };
    expect(result.created).toBe(4);
    expect(result.totals.skipped).toBe(1);
    const status = await runCli(["status", "--json"], env);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout).redis).toContain("cluster");
  }, 60_000);
});
