import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { afterAll, describe, expect, inject, it } from "vitest";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { closeQueues, createQueues, QUEUE_NAMES } from "../../src/queue/queues.ts";
import { NO_FAULTS } from "../../src/simulator/faults.ts";
import { spawnVcw, type VcwProcess } from "../support/cli.ts";
import { contactsCsv, drop, phoneOf, shortLeaseEnv, summaryOf, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { API_KEY, validAssistant, validDialer } from "../support/fixtures.ts";
import { useSimulator } from "../support/simulator.ts";

/** Real daemon processes (`vcw start`, `vcw worker`) against the simulator of this test file. */
describe("worker processes: crashes and sharing", () => {
  const t = useSimulator();
  const redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
  const running: VcwProcess[] = [];
  afterAll(async () => {
    for (const p of running) p.child.kill("SIGKILL");
    await redis.quit();
  });

  /** A job with its own folders and key space, its segment created up front (so the test knows its id). */
  async function setup(extraEnv: NodeJS.ProcessEnv = {}, extraJob = "") {
    const home = tempDir("vcw-proc-");
    const inbox = join(home, "inbox");
    const segmentId = (await t.client.segments.create({ name: `proc-${randomBytes(3).toString("hex")}` }))
      .id!;
    mkdirSync(join(home, "jobs"));
    writeFileSync(
      join(home, "jobs", "crash.yaml"),
      `name: crash\ninbox: ${inbox}\nsegment:\n  id: ${segmentId}\ncontacts:\n  country: US\n${extraJob}`,
    );
    const prefix = `vcw-test-${randomBytes(4).toString("hex")}`;
    const env: NodeJS.ProcessEnv = {
      ...shortLeaseEnv(home, t.sim.url, prefix),
      ...extraEnv,
    };
    const start = (role: "start" | "worker", more: NodeJS.ProcessEnv = {}) => {
      const p = spawnVcw([role], { ...env, ...more });
      running.push(p);
      return p;
    };
    return { home, inbox, segmentId, prefix, start };
  }

  async function phonesIn(segmentId: string): Promise<string[]> {
    t.sim.setFaults(NO_FAULTS);
    return (await t.client.contacts.list(segmentId)).map((c) => c.phone!);
  }

  it("a worker killed with SIGKILL at random moments (10 times) still creates every valid contact exactly once", async () => {
    t.sim.setFaults({ ...NO_FAULTS, latencyMs: 10, jitterMs: 10 });
    const s = await setup({ VCW_RATE_LIMIT: "250" });
    const bad = Array.from({ length: 40 }, (_, i) => `12${i},Bad ${i},`);
    drop(s.inbox, "big.csv", contactsCsv(2_000, { from: 50_000, extra: bad }));
    const ledger = redisKeys(s.prefix).ledger(s.segmentId);
    const seed = Number(process.env.CRASH_SEED ?? Date.now() % 100_000);
    let random = seed;
    const next = () => {
      random = (random * 48_271) % 2_147_483_647;
      return random / 2_147_483_647;
    };
    const kills: { afterMs: number; done: number }[] = [];
    while (kills.length < 10) {
      const before = await redis.hlen(ledger);
      const p = s.start("start");
      const started = Date.now();
      // Kill at a random moment once this process has made some progress (or at once, 1 time in 4).
      if (next() > 0.25)
        await waitFor(
          async () => ((await redis.hlen(ledger)) > before ? true : undefined),
          30_000,
          "progress",
        );
      await sleep(Math.floor(next() * 700));
      p.child.kill("SIGKILL");
      await p.exited;
      const done = await redis.hlen(ledger);
      kills.push({ afterMs: Date.now() - started, done });
      expect(
        summaryOf(s.inbox, "big.csv"),
        `finished before kill ${kills.length} (seed ${seed})`,
      ).toBeUndefined();
    }
    console.log(`crash test seed ${seed}: ${JSON.stringify(kills)}`);
    const last = s.start("start");
    const summary = await waitFor(() => summaryOf(s.inbox, "big.csv"), 90_000, `big.csv done (seed ${seed})`);
    last.child.kill("SIGTERM");
    await last.exited;
    expect(summary.status).toBe("imported");
    expect(summary.totals).toMatchObject({ valid: 2_000, rejected: 40 });
    const phones = await phonesIn(s.segmentId);
    expect(phones.length, `seed ${seed}, kills ${JSON.stringify(kills)}`).toBe(2_000);
    expect(new Set(phones)).toEqual(new Set(Array.from({ length: 2_000 }, (_, i) => phoneOf(50_000 + i))));
  }, 300_000);

  it("SIGTERM stops gracefully: the running import is checkpointed and requeued, and the next daemon resumes it", async () => {
    t.sim.setFaults({ ...NO_FAULTS, latencyMs: 10 });
    const s = await setup({ VCW_RATE_LIMIT: "200" });
    drop(s.inbox, "long.csv", contactsCsv(1_500, { from: 80_000 }));
    const ledger = redisKeys(s.prefix).ledger(s.segmentId);
    const first = s.start("start");
    await waitFor(async () => ((await redis.hlen(ledger)) >= 300 ? true : undefined), 30_000, "300 contacts");
    first.child.kill("SIGTERM");
    await first.exited;
    expect(first.child.exitCode).toBe(0);
    expect(first.logs()).toMatch(/"msg":"import paused: the daemon is stopping"/);
    const queues = createQueues({ connection: redis, keys: redisKeys(s.prefix) });
    const [paused] = await queues.imports.getJobs(["delayed", "waiting"]);
    await closeQueues(queues);
    expect(paused).toBeDefined();
    expect((paused!.progress as { cursor: number }).cursor).toBeGreaterThan(0);

    const second = s.start("start");
    const summary = await waitFor(() => summaryOf(s.inbox, "long.csv"), 60_000, "long.csv done");
    second.child.kill("SIGTERM");
    await second.exited;
    expect(summary.resumedFrom).toBeGreaterThan(0);
    expect(summary.attempts).toBe(2);
    const phones = await phonesIn(s.segmentId);
    expect(phones).toHaveLength(1_500);
    expect(new Set(phones).size).toBe(1_500);
    // The API key reaches neither the logs nor anything kept in Redis.
    for (const p of [first, second]) expect(p.logs()).not.toContain(API_KEY);
    for (const key of await redis.keys(`${s.prefix}*`)) {
      const type = await redis.type(key);
      const dump =
        type === "hash"
          ? JSON.stringify(await redis.hgetall(key))
          : type === "string"
            ? await redis.get(key)
            : "";
      expect(dump, key).not.toContain(API_KEY);
    }
  }, 120_000);

  it("workers killed around the end of an import and the campaign's creation: one campaign, not two", async () => {
    // Slow answers widen the window between asking for the campaign and remembering its id.
    t.sim.setFaults({ ...NO_FAULTS, latencyMs: 150, jitterMs: 100 });
    const assistant = (await t.client.assistants.create(validAssistant())).id!;
    const dialer = (await t.client.dialers.create(validDialer())).id!;
    const s = await setup(
      { VCW_RATE_LIMIT: "500" },
      `campaign:\n  assistant: { id: ${assistant} }\n  dialer: { id: ${dialer} }\n  name: "crash-{file}"\n`,
    );
    const keys = redisKeys(s.prefix);
    const tag = randomBytes(3).toString("hex");
    const files = Array.from({ length: 6 }, (_, k) => `crash-${tag}-${k}.csv`);
    const campaignsOf = async (file: string) =>
      (await t.client.campaigns.list()).filter((c) => c.campaigns_name?.startsWith(`crash-${file} #`));
    // Each round drops a new file and kills the worker at a random moment after its campaign is asked for.
    let midCreation = 0;
    for (const [k, file] of files.entries()) {
      const p = s.start("start");
      drop(s.inbox, file, contactsCsv(5, { from: 61_000 + k * 10 }));
      const job = await waitFor(
        async () =>
          (await redis.keys(`${keys.queue(QUEUE_NAMES.campaigns)}:${QUEUE_NAMES.campaigns}:campaign-crash-*`))
            .length > k
            ? true
            : undefined,
        // A daemon started beside other test files on two cores may take a while to ask.
        120_000,
        `campaign of ${file} asked for`,
      );
      void job;
      await sleep(Math.floor(Math.random() * 600));
      p.child.kill("SIGKILL");
      await p.exited;
      if ((await campaignsOf(file)).length === 0 || (await redis.scard(keys.campaignsOf("crash"))) <= k)
        midCreation += 1;
    }
    const last = s.start("start");
    await waitFor(
      async () => ((await redis.scard(keys.campaignsOf("crash"))) >= files.length ? true : undefined),
      90_000,
      "every campaign registered",
    );
    last.child.kill("SIGTERM");
    await last.exited;
    console.log(
      `campaign crash test: ${midCreation} of ${files.length} kills before the campaign was registered`,
    );
    for (const file of files) expect(await campaignsOf(file), file).toHaveLength(1);
    expect(await redis.scard(keys.campaignsOf("crash"))).toBe(files.length);
  }, 600_000);

  it("two worker processes import two overlapping files at once: each contact once, and the shared limit holds", async () => {
    // The service takes 100 requests a second; each process alone is allowed 90: only a shared limit avoids 429s.
    t.sim.setFaults({ ...NO_FAULTS, latencyMs: 5, rateLimit: 100 });
    t.sim.stats.reset();
    const s = await setup({ VCW_RATE_LIMIT: "90", VCW_FILE_CONCURRENCY: "1" });
    drop(s.inbox, "a.csv", contactsCsv(400, { from: 70_000 }));
    drop(s.inbox, "b.csv", contactsCsv(400, { from: 70_200 }));
    const a = s.start("start");
    const b = s.start("worker");
    const started = Date.now();
    await waitFor(() => summaryOf(s.inbox, "a.csv"), 60_000, "a.csv done");
    await waitFor(() => summaryOf(s.inbox, "b.csv"), 60_000, "b.csv done");
    const seconds = (Date.now() - started) / 1000;
    for (const p of [a, b]) p.child.kill("SIGTERM");
    await Promise.all([a.exited, b.exited]);
    // Each process imported one of the files.
    expect(a.logs()).toMatch(/"msg":"import done"/);
    expect(b.logs()).toMatch(/"msg":"import done"/);
    expect(t.sim.stats.count(429)).toBe(0);
    // 600 distinct contacts, 800 rows: at 90 req/s that takes at least about 6.6 s.
    expect(seconds).toBeGreaterThan(5);
    const phones = await phonesIn(s.segmentId);
    expect(phones).toHaveLength(600);
    expect(new Set(phones).size).toBe(600);
  }, 120_000);
});
