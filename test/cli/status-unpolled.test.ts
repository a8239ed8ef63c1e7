import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, describe, expect, inject, it } from "vitest";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createCampaignStore } from "../../src/pipeline/stores/campaign-store.ts";
import { cliEnv, runCli } from "../support/cli.ts";
import { writeJob } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { campaignInfo } from "../support/fixtures.ts";

/** `vcw status` names a job whose active campaigns nobody polls, as the dashboard and the scheduler do. */
describe("vcw status and a job loaded nowhere", () => {
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

    const text = await runCli(["status"], env, 30_000, home);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      'warning: job "retired" has 2 active campaigns that no running daemon polls (its job file is loaded nowhere)',
    );
    expect(text.stdout).toContain("put the file back in the jobs folder");
    const json = JSON.parse((await runCli(["status", "--json"], env, 30_000, home)).stdout);
    expect(json.unpolledJobs).toEqual([{ job: "retired", active: 2, why: "not-loaded" }]);

    // A daemon ticks it (its record of the tick): nothing to say.
    await store.setPollLag("retired", { at: Date.now(), lagMs: 0, due: 0, behind: false }, 60_000);
    expect((await runCli(["status"], env, 30_000, home)).stdout).not.toContain("no running daemon polls");
  });
});
