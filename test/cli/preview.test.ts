import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisServer, startRedisServer } from "../../src/daemon/redis-server.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { variantOf } from "../../src/pipeline/variant-assignment.ts";
import { calleeWindowJobYaml } from "../support/calling-job.ts";
import { runCli } from "../support/cli.ts";
import { tempDir } from "../support/files.ts";
import { API_KEY, validAssistant } from "../support/fixtures.ts";
import { useSimulator } from "../support/simulator.ts";

const MIXED = join(import.meta.dirname, "../fixtures/calling/mixed.csv");

/** A job of the mixed file: US and GB rules, a window in the callee's zone; its assistant by id (a1, else `assistantId`). */
function mixedJob(home: string, assistantId?: string): string {
  const jobs = join(home, "jobs");
  mkdirSync(jobs, { recursive: true });
  const yaml = calleeWindowJobYaml("mixed", join(home, "inbox"), ["calling:", "  rules: [us, gb]"]);
  writeFileSync(
    join(jobs, "mixed.yaml"),
    assistantId ? yaml.replace("{ id: a1 }", `{ id: ${assistantId} }`) : yaml,
  );
  return jobs;
}

/** What the simulator answered, by operation: to tell a read from a write. */
const answered = (stats: Map<string, Map<number, number>>) =>
  Object.fromEntries(
    [...stats].map(([op, byStatus]) => [op, [...byStatus.values()].reduce((a, b) => a + b, 0)]),
  );

describe("vcw preview", () => {
  const t = useSimulator();
  let server: RedisServer;
  let redis: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });

  it("prints the campaigns, the later and the skipped, and writes nothing: Redis untouched, the service only read", async () => {
    const home = tempDir("vcw-preview-");
    // An assistant the service has: preview looks it up (issue 40), and finds it.
    const assistant = (await t.client.assistants.create(validAssistant({ name: "Previewed" }))).id!;
    const env = {
      VCW_HOME: home,
      VCW_JOBS_DIR: mixedJob(home, assistant),
      VCW_PREFIX: "pv",
      REDIS_URL: server.url,
      VCS_BASE_URL: t.sim.url,
      VCS_API_KEY: API_KEY,
    };
    const keys = redisKeys("pv");
    // What it reads: an opted-out number, a recently called one.
    await redis.sadd(keys.suppressed, "+14155550103");
    await redis.hset(keys.calls("+12125550104"), {
      lastAt: String(Date.parse("2026-11-23T12:00:00Z")),
      campaign: "x",
    });
    const before = {
      keys: (await redis.keys("*")).sort(),
      dirty: (await redis.info("persistence")).match(/rdb_changes_since_last_save:(\d+)/)![1],
      answered: answered(t.sim.stats.byOperation),
    };

    const json = await runCli(
      ["preview", MIXED, "--job", "mixed", "--at", "2026-11-23T22:30:00Z", "--json"],
      env,
    );
    expect(json.stderr).toBe("");
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.skipped).toEqual({ opted_out: 1, recently_called: 1, phone_too_short: 1 });
    const byLabel = Object.fromEntries(report.campaigns.map((c: { label: string }) => [c.label, c]));
    // Florida: 20:00 Eastern less 15 minutes; the UK at London's 07:00 (no statutory hours: the job's window).
    // A service at VCS_BASE_URL without keys: a start open now waits the default 60 s settle time (issue 40).
    expect(byLabel["America/New_York FL"]).toMatchObject({
      region: "FL",
      phones: ["+13055550101"],
      contacts: 1,
      scheduledAt: "2026-11-23T22:31:00.000Z",
      startReason: "60 s after its create: VCW_SETTLE_MS",
      callUntil: "2026-11-24T00:45:00.000Z",
      expectedEndAt: "2026-11-23T22:32:00.000Z",
    });
    expect(byLabel["Europe/London"].startReason).toBeUndefined();
    expect(byLabel["Europe/London"]).toMatchObject({
      phones: ["+442079460105"],
      scheduledAt: "2026-11-24T07:00:00.000Z",
    });
    // Toll-free: it may be in any state, so every state's rules apply (issue 31; the federal 21:00
    // alone called Florida past 20:00): on a Monday, Rhode Island's 18:00 in New York, less the margin.
    const tollFree = report.campaigns.find((c: { phones: string[] }) => c.phones.includes("+18005550106"));
    expect(tollFree).toMatchObject({ phones: ["+18005550106"], callUntil: "2026-11-23T22:45:00.000Z" });

    const text = await runCli(["preview", MIXED, "--job", "mixed", "--at", "2026-11-23T22:30:00Z"], env);
    expect(text.stderr).toBe("");
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/\d+ campaigns:/);
    // Every time a person reads carries its zone; ISO only in --json.
    expect(text.stdout).toContain(
      "starts 2026-11-23 17:31 EST (60 s after its create: VCW_SETTLE_MS), expected end 2026-11-23 17:32 EST, calls until 2026-11-23 19:45 EST",
    );
    expect(text.stdout).toContain("as if dropped at 2026-11-23 22:30 UTC");
    expect(text.stdout).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:/);
    expect(text.stdout).toMatch(/skipped: .*opted out 1/);
    // Phones masked in the text, whole in the JSON.
    expect(text.stdout).not.toContain("+13055550101");
    expect(text.stdout).toContain("+13•••••••01");

    expect((await redis.keys("*")).sort()).toEqual(before.keys);
    expect((await redis.info("persistence")).match(/rdb_changes_since_last_save:(\d+)/)![1]).toBe(
      before.dirty,
    );
    // The service was only read: its assistants, once a run (to name one it does not have).
    const after = answered(t.sim.stats.byOperation);
    expect(after).toEqual({
      ...before.answered,
      "assistants.list": (before.answered["assistants.list"] ?? 0) + 2,
    });
  });

  it("a job with variants: each planned campaign split by its contacts' variants, each given its variant in --json", async () => {
    const home = tempDir("vcw-preview-");
    const jobs = mixedJob(home);
    const yaml = readFileSync(join(jobs, "mixed.yaml"), "utf8").replace(
      "  assistant: { id: a1 }\n",
      "  variants:\n    - { name: a, assistant: { id: a1 }, share: 1 }\n    - { name: b, assistant: { id: a2 }, share: 1 }\n",
    );
    writeFileSync(join(jobs, "mixed.yaml"), yaml);
    const env = { VCW_HOME: home, VCW_JOBS_DIR: jobs, VCW_PREFIX: "pv-var", REDIS_URL: server.url };
    const at = ["--at", "2026-11-23T22:30:00Z"];
    const plain = JSON.parse(
      (
        await runCli(["preview", MIXED, "--job", "mixed", ...at, "--json"], {
          ...env,
          VCW_JOBS_DIR: mixedJob(tempDir("vcw-preview-")),
        })
      ).stdout,
    );
    const json = await runCli(["preview", MIXED, "--job", "mixed", ...at, "--json"], env);
    expect(json.stderr).toBe("");
    const report = JSON.parse(json.stdout);
    const split = report.campaigns as { label: string; variant: string; phones: string[] }[];
    expect(split.length).toBeGreaterThan(plain.campaigns.length);
    for (const c of split) {
      expect(["a", "b"]).toContain(c.variant);
      for (const phone of c.phones)
        expect(
          variantOf("mixed", phone, [
            { name: "a", share: 1 },
            { name: "b", share: 1 },
          ]),
        ).toBe(c.variant);
    }
    // The same contacts, labels and times as without variants: only split.
    for (const p of plain.campaigns as { label: string; phones: string[]; scheduledAt: string }[]) {
      const parts = split.filter((c) => c.label === p.label);
      expect(parts.flatMap((c) => c.phones).sort()).toEqual([...p.phones].sort());
      for (const c of parts) expect(c).toMatchObject({ scheduledAt: p.scheduledAt });
    }
    const text = await runCli(["preview", MIXED, "--job", "mixed", ...at], env);
    expect(text.stdout).toMatch(/variant [ab]: \d+ contacts?,/);
    // What the file can find, and vcw experiment plan with the same file's callable contacts.
    const contacts = split.reduce((n, c) => n + c.phones.length, 0);
    expect(text.stdout).toMatch(
      /^experiment: b against a can find (\d+(\.\d)? pts|nothing) at 80% power \(always-valid, base rate 30% assumed; vcw experiment plan mixed --file/m,
    );
    const plan = await runCli(
      ["experiment", "plan", "mixed", "--file", MIXED, "--base-rate", "0.2", "--effect", "10"],
      env,
    );
    expect(plan.stderr).toBe("");
    expect(plan.stdout).toContain(
      `Job mixed: experiment plan on contacts reached, for ${MIXED}'s callable contacts`,
    );
    expect(plan.stdout).toContain(
      `${contacts} contacts, base rate 20%; always-valid intervals tuned for 5,000 contacts`,
    );
    expect(plan.stdout).toMatch(
      /^- b \(\d+\) against a \(\d+\): [\d.]+ pts as the guardrail decides \(always-valid, looking after every poll\); [\d.]+ pts fixed-horizon \(one look at the end\)$/m,
    );
    expect(plan.stdout).toMatch(
      /^To find 10 pts with 80% power: [\d,]+ contacts in all as the guardrail decides; [\d,]+ fixed-horizon\.$/m,
    );
    const json2 = JSON.parse(
      (await runCli(["experiment", "plan", "mixed", "--contacts", "4000", "--json"], env)).stdout,
    );
    expect(json2).toMatchObject({ job: "mixed", contacts: 4000, baseRate: 0.3, comparisons: 1, alpha: 0.05 });
    expect(json2.rows[0].sequential).toBeGreaterThan(json2.rows[0].fixed);
    const wrong = await runCli(["experiment", "plan", "mixed", "--base-rate", "30"], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("--base-rate 30 is not a rate between 0 and 1 (such as 0.3 or 30%)");
  });

  it("a job without calling: says it is not paced, and gives no expected end (a campaign takes all its contacts at its opening)", async () => {
    const home = tempDir("vcw-preview-");
    const jobs = join(home, "jobs");
    mkdirSync(jobs, { recursive: true });
    writeFileSync(join(jobs, "plain.yaml"), calleeWindowJobYaml("plain", join(home, "inbox")));
    const env = { VCW_HOME: home, VCW_JOBS_DIR: jobs, VCW_PREFIX: "pv-plain", REDIS_URL: server.url };
    const at = ["--at", "2026-11-23T22:30:00Z"];
    const json = await runCli(["preview", MIXED, "--job", "plain", ...at, "--json"], env);
    expect(json.stderr).toBe("");
    expect(JSON.parse(json.stdout).pace).toEqual({ callsPerMinute: null, learned: false });
    const text = await runCli(["preview", MIXED, "--job", "plain", ...at], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("pace: none (no calling: block)");
    expect(text.stdout).not.toMatch(/Infinity|expected end/);
    expect(text.stdout).toMatch(/starts 2026-11-2\d \d\d:\d\d [A-Z]+, calls until/);
  });

  it("says what is wrong with --at and an unknown job", async () => {
    const home = tempDir("vcw-preview-");
    const env = { VCW_HOME: home, VCW_JOBS_DIR: mixedJob(home), REDIS_URL: server.url };
    const badAt = await runCli(["preview", MIXED, "--job", "mixed", "--at", "tomorrow"], env);
    expect(badAt.code).toBe(2);
    expect(badAt.stderr).toMatch(/--at tomorrow is not an ISO 8601 time/);
    const noJob = await runCli(["preview", MIXED, "--job", "nope"], env);
    expect(noJob.code).toBe(2);
    expect(noJob.stderr).toMatch(/no job named "nope"/);
  });
});
