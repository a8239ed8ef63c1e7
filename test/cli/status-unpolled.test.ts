import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, describe, expect, inject, it } from "vitest";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { campaignKey } from "../../src/pipeline/campaign/lifecycle.ts";
import { createCampaignStore } from "../../src/pipeline/stores/campaign-store.ts";
import { createCreateMemo } from "../../src/pipeline/stores/create-memo.ts";
import { createPresenceStore } from "../../src/pipeline/stores/daemon-presence.ts";
import { closeQueues, createQueues } from "../../src/queue/queues.ts";
import { cliEnv, runCli } from "../support/cli.ts";
import { writeJob } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { campaignInfo } from "../support/fixtures.ts";

/**
 * `vcw status` names a job whose active campaigns nobody polls, as the dashboard and the scheduler
 * do; `vcw stop` of such a campaign says it waits for a poll rather than "none is called later";
 * `vcw campaigns` still lists them.
 */
describe("vcw status and vcw stop, and a job nobody polls", () => {
  const redis = new Redis(inject("redisUrl"));
  afterAll(async () => {
    await redis.quit();
  });

  it("prints a warning with the job, its active campaigns and the fix; --json carries it", async () => {
    const home = tempDir("vcw-status-");
    writeJob(join(home, "jobs"), "leads", join(home, "inbox"));
    const env = cliEnv(home, "http://127.0.0.1:9");
    const store = createCampaignStore(redis, redisKeys(env.VCW_PREFIX!));
    await store.register(campaignInfo({ id: "cmp_r1", name: "r1", job: "retired" }), Date.now());
    await store.register(campaignInfo({ id: "cmp_r2", name: "r2", job: "retired" }), Date.now());

    // No daemon runs: nothing polls.
    const none = await runCli(["status"], env, 30_000, home);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain(
      'warning: job "retired" has 2 active campaigns that no running daemon polls (no vcw start is running)',
    );
    // A stop is carried out by a poll: asked now, it says it waits, and exits 1 (not done); its own
    // job is judged, with or without the index (an earlier version never wrote it).
    await redis.del(redisKeys(env.VCW_PREFIX!).jobsWithCampaigns);
    const stop = await runCli(["stop", "cmp_r1", "--wait", "0"], env, 30_000, home);
    expect(stop.code).toBe(1);
    expect(stop.stderr).toContain(
      "but no running daemon polls job retired (no vcw start is running): it is carried out at its first poll, once you start one (vcw start); until then the service goes on calling",
    );

    // By its file: the last line says the stop waits for a poll, not that the service can't stop it.
    const request = {
      job: "retired",
      sha256: "cd".repeat(32),
      gen: 1,
      original: "retired.csv",
      segmentId: "s",
      attempt: 1,
      name: "r2",
    };
    const queues = createQueues({ connection: redis, keys: redisKeys(env.VCW_PREFIX!) });
    await queues.campaigns.add("create", request);
    await createCreateMemo(redis, redisKeys(env.VCW_PREFIX!))
      .campaign(campaignKey(request))
      .remember("cmp_r2");
    await closeQueues(queues);
    const byFile = await runCli(["stop", "retired.csv", "--wait", "0"], env, 30_000, home);
    expect(byFile.code).toBe(1);
    expect(byFile.stderr).toContain("no running daemon polls job retired");
    expect(byFile.stderr).toContain(
      "not every stop is carried out yet: 1 campaign waits for a daemon that polls its job (above)",
    );
    expect(byFile.stderr).not.toContain("no operation to pause or stop");

    await store.noteJobsWithCampaigns(["retired"]);

    // A vcw start runs without the job (this folder has it or not: what the daemons say counts).
    const presence = createPresenceStore(redis, redisKeys(env.VCW_PREFIX!));
    const start = {
      role: "start" as const,
      host: "h",
      pid: 1,
      http: null,
      startedAt: new Date().toISOString(),
    };
    await presence.write("a-start", { ...start, ticks: ["leads"], loaded: ["leads"] });
    const text = await runCli(["status"], env, 30_000, home);
    expect(text.stdout).toContain(
      'warning: job "retired" has 2 active campaigns that no running daemon polls (no running vcw start loads its job file)',
    );
    expect(text.stdout).toContain("put the file back in the jobs folder");
    // Refreshed as its daemon would every 10 s (an entry unrefreshed for 30 s is of a daemon gone).
    await presence.write("a-start", { ...start, ticks: ["leads"], loaded: ["leads"] });
    const json = JSON.parse((await runCli(["status", "--json"], env, 30_000, home)).stdout);
    expect(json.unpolledJobs).toMatchObject([{ job: "retired", active: 2, why: "not-loaded" }]);

    // It ticks it now: nothing to say.
    await presence.write("a-start", {
      ...start,
      ticks: ["leads", "retired"],
      loaded: [],
    });
    const quiet = await runCli(["status"], env, 30_000, home);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toContain("daemon start on h");
    expect(quiet.stdout).not.toContain("no running daemon polls");

    // Its campaigns are listed though this folder has no such job, and it can be asked for by name.
    const all = JSON.parse((await runCli(["campaigns", "--json"], env, 30_000, home)).stdout);
    expect(all.map((c: { id: string }) => c.id).sort()).toEqual(["cmp_r1", "cmp_r2"]);
    const one = await runCli(["campaigns", "--job", "retired", "--json"], env, 30_000, home);
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout)).toHaveLength(2);
    expect((await runCli(["campaigns", "--job", "never"], env, 30_000, home)).code).toBe(2);
  });
});
