import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { counted } from "../../src/lib/plural.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createStopStore } from "../../src/pipeline/stores/stop-store.ts";
import type { StoredCampaign } from "../../src/simulator/store.ts";
import { useCallingDaemon } from "../support/calling-daemon.ts";
import { runCli } from "../support/cli.ts";
import { contactsCsv, drop, testSettings, waitFor } from "../support/daemon.ts";
import { useRedis } from "../support/redis.ts";

const BUSY = { completed: 0, "no-answer": 0, busy: 1, voicemail: 0, failed: 0, "opted-out": 0 };

describe("two vcw stop of one file at once", () => {
  const h = useCallingDaemon({
    timeScale: 1,
    campaignSegment: "live",
    callModel: { pacingMs: 1_000, outcomes: BUSY },
  });
  const { redis } = useRedis();

  it("one carries the stop out, the other reports what was done: the same contacts, not 0", async () => {
    const job = h.callingJob();
    const settings = testSettings(job.home, h.t.sim.url);
    await h.start(settings);
    drop(job.inbox, "leads.csv", contactsCsv(30, { from: 840_000 }));
    const campaign = await waitFor(
      () =>
        h.t.sim.store
          .list<StoredCampaign>("campaigns")
          .find((c) => String(c.fields.campaigns_name).startsWith(`${job.name} `)),
      30_000,
      "campaign",
    );
    await waitFor(
      () =>
        (campaign.audience ?? []).filter((m) => m.plan.dialAt <= h.t.sim.clock.now()).length >= 3
          ? true
          : undefined,
      30_000,
      "calls began",
    );
    const env = {
      REDIS_URL: inject("redisUrl"),
      VCW_PREFIX: settings.prefix.value,
      VCW_JOBS_DIR: join(job.home, "jobs"),
    };
    const [a, b] = await Promise.all([
      runCli(["stop", "leads.csv", "--json"], env, 90_000),
      runCli(["stop", "leads.csv", "--json"], env, 90_000),
    ]);
    for (const r of [a, b]) expect(r.code, r.stderr).toBe(0);
    const results = [a, b].map(
      (r) => JSON.parse(r.stdout) as { count: number; message: string; stop?: { withdrawn: number } },
    );
    // One asked for the stop, the other found it asked: both waited for it and say what it did.
    expect(results.map((r) => r.count).sort()).toEqual([0, 1]);
    const stop = (await createStopStore(redis, redisKeys(settings.prefix.value)).get(campaign.id))!;
    expect(stop.withdrawn).toBeGreaterThan(0);
    for (const r of results) {
      expect(r.stop?.withdrawn).toBe(stop.withdrawn);
      expect(r.message).toContain(
        `${counted(stop.withdrawn, "contact")} not yet called taken out of its segment`,
      );
      expect(r.message).not.toContain("already stopped");
    }
  }, 150_000);
});
