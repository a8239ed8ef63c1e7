import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import type { CampaignListing } from "../../src/pipeline/reports/campaign-list.ts";
import type { ReportModel } from "../../src/pipeline/reports/model.ts";
import { createCampaignStore } from "../../src/pipeline/stores/campaign-store.ts";
import { runCli } from "../support/cli.ts";
import { tempDir } from "../support/files.ts";
import { campaignInfo } from "../support/fixtures.ts";
import { useRedis } from "../support/redis.ts";

describe("vcw report with campaigns waiting for their start", () => {
  const { redis } = useRedis();

  it("lists and counts them as waiting, with their planned start, as vcw campaigns does", async () => {
    const prefix = `vcw-test-${randomBytes(4).toString("hex")}`;
    const home = tempDir("vcw-waiting-");
    const jobs = join(home, "jobs");
    mkdirSync(jobs);
    writeFileSync(
      join(jobs, "w.yaml"),
      ["name: wait", `inbox: ${join(home, "inbox")}`, "segment: { id: seg_1 }", "campaign:"]
        .concat(["  assistant: { id: a }", "  dialer: { id: d }"])
        .join("\n"),
    );
    const store = createCampaignStore(redis, redisKeys(prefix));
    // Made ten minutes ago, each waiting for its calling window: nobody called yet.
    for (const [id, inHours] of [
      ["cmp_w1", 3],
      ["cmp_w2", 20],
    ] as const)
      await store.register(
        campaignInfo({
          id,
          name: `wait leads ${id}`,
          job: "wait",
          scheduledAt: new Date(Date.now() + inHours * 3_600_000).toISOString(),
          audience: 12,
        }),
        Date.now() - 600_000,
      );
    const env = { REDIS_URL: inject("redisUrl"), VCW_PREFIX: prefix, VCW_JOBS_DIR: jobs };

    const listed = await runCli(["campaigns", "--job", "wait", "--state", "waiting", "--json"], env);
    expect(listed.code, listed.stderr).toBe(0);
    const waiting = (JSON.parse(listed.stdout) as CampaignListing[]).map((c) => c.id).sort();
    expect(waiting).toEqual(["cmp_w1", "cmp_w2"]);

    const json = await runCli(["report", "--job", "wait", "--json"], env);
    expect(json.code, json.stderr).toBe(0);
    const r = JSON.parse(json.stdout) as ReportModel;
    expect(
      r.campaigns
        .filter((c) => c.state === "waiting")
        .map((c) => c.id)
        .sort(),
    ).toEqual(waiting);
    expect(r.campaigns.every((c) => Date.parse(c.scheduledAt) > Date.now())).toBe(true);

    const text = await runCli(["report", "--job", "wait"], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).not.toContain("Campaigns (0)");
    expect(text.stdout).toContain("Campaigns (2, 2 waiting to start):");
    expect(text.stdout).toMatch(
      /- wait leads cmp_w1 \[waiting until \d{4}-\d\d-\d\d \d\d:\d\d UTC\]: 12 contacts/,
    );
  });
});
