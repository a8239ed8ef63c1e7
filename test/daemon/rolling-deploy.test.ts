import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { campaignFileBase } from "../../src/lib/campaign-file-name.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createCampaignStore } from "../../src/pipeline/stores/campaign-store.ts";
import { QUEUE_NAMES, type QueueKind, queuePrefix } from "../../src/queue/queues.ts";
import { cliEnv, runCli, spawnVcw, type VcwProcess } from "../support/cli.ts";
import { contactsCsv, drop, summaryOf, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { validAssistant, validDialer } from "../support/fixtures.ts";
import { useSimulator } from "../support/simulator.ts";

/**
 * Issue 17, item 3: two daemon processes on one Redis during a rolling deploy, one with jobs {r1},
 * the other with {r1, r2}. Neither fails work it lacks the definition for; each job's files are
 * imported, get their campaigns, are polled to the end, and their summaries reach the sinks.
 */
describe("rolling deploys: two daemons with different job sets", () => {
  const t = useSimulator({ timeScale: 600 });
  const redis = new Redis(inject("redisUrl"));
  const root = tempDir("vcw-rolling-");
  const prefix = `vcw-test-${randomBytes(4).toString("hex")}`;
  const inboxOf = (job: string) => join(root, "inbox", job);
  const out = (job: string) => join(root, "out", job);
  let assistant: string;
  let dialer: string;
  const running: VcwProcess[] = [];

  beforeAll(async () => {
    assistant = (await t.client.assistants.create(validAssistant())).id!;
    dialer = (await t.client.dialers.create(validDialer())).id!;
  });
  afterAll(async () => {
    for (const p of running) {
      p.child.kill("SIGTERM");
      await p.exited;
    }
    redis.disconnect();
  });

  /** A job with a campaign polled every second, whose summaries go to a file sink of its own. */
  const jobYaml = (name: string, inbox = inboxOf(name)) =>
    [
      `name: ${name}`,
      `inbox: ${inbox}`,
      `segment: { name: "${prefix} ${name} {file}" }`,
      "contacts: { country: US }",
      `campaign: { assistant: { id: ${assistant} }, dialer: { id: ${dialer} }, start: asap }`,
      'polling: { schedule: "* * * * * *" }',
      `summaries: { sinks: [${name}-files] }`,
    ].join("\n");

  /** A daemon's folder of job definitions: the jobs given and a file sink for each. */
  function daemonHome(label: string, jobs: Record<string, string>) {
    const home = join(root, label);
    mkdirSync(join(home, "jobs"), { recursive: true });
    for (const [name, yaml] of Object.entries(jobs)) writeFileSync(join(home, "jobs", `${name}.yaml`), yaml);
    const sinks = Object.keys(jobs).flatMap((name) => [
      `  ${name}-files:`,
      "    type: file",
      `    dir: ${out(name)}`,
    ]);
    writeFileSync(join(home, "jobs", "sinks.yaml"), ["sinks:", ...sinks].join("\n"));
    return cliEnv(home, t.sim.url, { VCW_PREFIX: prefix, VCW_STABLE_MS: "200", VCW_RESCAN_MS: "1000" });
  }

  async function startVcw(env: NodeJS.ProcessEnv) {
    const p = spawnVcw(["start"], env);
    running.push(p);
    await waitFor(() => (p.logs().includes("daemon running") ? true : undefined), 30_000, "daemon up");
    return p;
  }

  async function failedJobs(): Promise<Record<string, number>> {
    const keys = redisKeys(prefix);
    const counts: Record<string, number> = {};
    for (const kind of Object.keys(QUEUE_NAMES) as QueueKind[]) {
      const q = new Queue(QUEUE_NAMES[kind], {
        connection: redis.duplicate(),
        prefix: queuePrefix(keys, kind),
      });
      counts[kind] = (await q.getJobCounts("failed")).failed ?? 0;
      await q.close();
    }
    return counts;
  }

  it("each daemon's jobs are imported, campaigned, polled and delivered; none fails on the other", async () => {
    const old = await startVcw(daemonHome("old", { r1: jobYaml("r1") }));
    const next = await startVcw(daemonHome("next", { r1: jobYaml("r1"), r2: jobYaml("r2") }));
    for (let i = 0; i < 3; i++) {
      drop(inboxOf("r1"), `a${i}.csv`, contactsCsv(4, { from: 10_000 + 10 * i }));
      drop(inboxOf("r2"), `b${i}.csv`, contactsCsv(4, { from: 20_000 + 10 * i }));
    }
    const store = createCampaignStore(redis, redisKeys(prefix));
    for (const job of ["r1", "r2"]) {
      for (let i = 0; i < 3; i++) {
        const file = `${job === "r1" ? "a" : "b"}${i}.csv`;
        const summary = await waitFor(() => summaryOf(inboxOf(job), file), 60_000, `${job}/${file} imported`);
        expect(summary).toMatchObject({ status: "imported", created: 4 });
      }
      const ids = await waitFor(
        async () => {
          const all = await store.allOf(job);
          return all.length === 3 ? all : undefined;
        },
        60_000,
        `three campaigns of ${job}`,
      );
      for (const id of ids) {
        await waitFor(
          async () => ((await store.get(id))?.info.state === "finished" ? true : undefined),
          90_000,
          `campaign ${id} of ${job} polled to the end`,
        );
        // The final summary reached the job's sink, which only some daemons have.
        const base = campaignFileBase((await store.get(id))!.info);
        await waitFor(
          () => (existsSync(join(out(job), `${base}.results.csv`)) ? true : undefined),
          30_000,
          `the results of ${id} delivered`,
        );
      }
    }
    expect(readdirSync(join(inboxOf("r2"), "processing")).filter((f) => f.endsWith(".csv"))).toEqual([]);
    expect(await failedJobs()).toEqual({ imports: 0, campaigns: 0, polls: 0, followUps: 0, deliveries: 0 });
    // The old daemon did meet r2's work, and handed it back rather than failing it.
    expect(old.logs()).toContain('no job definition named \\"r2\\" is loaded in this process: handed back');
    expect(next.logs()).not.toContain('"level":50');

    // A third daemon whose job r3 watches r1's inbox is refused, twice, naming the other job.
    const clash = daemonHome("clash", { r3: jobYaml("r3", inboxOf("r1")) });
    for (const round of [1, 2]) {
      const refused = await runCli(["start"], clash, 30_000);
      expect(refused.code, `round ${round}`).toBe(1);
      expect(refused.stderr).toContain(`is watched by another daemon for job "r1"`);
    }
  }, 240_000);
});
