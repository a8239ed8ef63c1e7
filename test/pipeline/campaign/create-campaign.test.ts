import { randomBytes } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { redisKeys } from "../../../src/lib/redis-keys.ts";
import {
  campaignName,
  createCampaignOnce,
  scheduledAtFor,
} from "../../../src/pipeline/campaign/create-campaign.ts";
import { createCreateMemo } from "../../../src/pipeline/stores/create-memo.ts";
import { NO_FAULTS } from "../../../src/simulator/faults.ts";
import { validAssistant, validDialer } from "../../support/fixtures.ts";
import { useRedis } from "../../support/redis.ts";
import { useSimulator } from "../../support/simulator.ts";

describe("createCampaignOnce: one campaign per file, whatever fails", () => {
  const t = useSimulator();
  const { redis, prefix } = useRedis();
  let ids: { assistant: string; dialer: string; segment: string };
  let p: string;

  beforeAll(async () => {
    ids = {
      assistant: (await t.client.assistants.create(validAssistant())).id!,
      dialer: (await t.client.dialers.create(validDialer())).id!,
      segment: (await t.client.segments.create({ name: "campaign-once" })).id!,
    };
  });
  beforeEach(() => {
    t.sim.setFaults(NO_FAULTS);
    p = prefix();
  });

  const body = (name: string) => ({
    campaigns_name: name,
    assistant_id: ids.assistant,
    contacts_id: ids.segment,
    dialer_id: ids.dialer,
    scheduled_at: new Date().toISOString(),
  });
  const named = async (name: string) =>
    (await t.client.campaigns.list()).filter((c) => c.campaigns_name === name);

  it("retried, or run by two workers at once: one campaign", async () => {
    const name = `once-${randomBytes(3).toString("hex")}`;
    const [a, b] = await Promise.all([
      createCampaignOnce(t.client, createCreateMemo(redis, redisKeys(p)).campaign("k1"), body(name)),
      createCampaignOnce(t.client, createCreateMemo(redis, redisKeys(p)).campaign("k1"), body(name)),
    ]);
    expect(a.id).toBe(b.id);
    expect([a.created, b.created].sort()).toEqual([false, true]);
    expect(
      (await createCampaignOnce(t.client, createCreateMemo(redis, redisKeys(p)).campaign("k1"), body(name)))
        .id,
    ).toBe(a.id);
    expect(await named(name)).toHaveLength(1);
  });

  it("a crash after the create, before it was remembered: the next attempt finds it by name", async () => {
    const name = `crash-${randomBytes(3).toString("hex")}`;
    const first = await createCampaignOnce(
      t.client,
      createCreateMemo(redis, redisKeys(p)).campaign("k2"),
      body(name),
    );
    await redis.del(`${p}:campaign-for:k2`); // what a crash right after the create leaves behind
    const second = await createCampaignOnce(
      t.client,
      createCreateMemo(redis, redisKeys(p)).campaign("k2"),
      body(name),
    );
    expect(second).toEqual({ id: first.id, created: false });
    expect(await named(name)).toHaveLength(1);
  });

  it("an ambiguous create (applied, then the answer lost) is found, not repeated", async () => {
    const name = `ambiguous-${randomBytes(3).toString("hex")}`;
    // Every write is applied, then its answer is lost (500 or a dropped connection); reads work.
    t.sim.setFaults({ commitThenFailRate: 1, commitThenFailMode: "mixed" });
    const before = t.sim.stats.committedThenFailed;
    const result = await createCampaignOnce(
      t.client,
      createCreateMemo(redis, redisKeys(p)).campaign("k3"),
      body(name),
    );
    expect(t.sim.stats.committedThenFailed).toBe(before + 1);
    expect(result.created).toBe(true);
    expect(await named(name)).toHaveLength(1);
  });
});

describe("scheduledAtFor and campaignName", () => {
  const now = Date.parse("2026-11-27T23:00:00Z"); // a Friday evening in New York

  it("asap is now; a fixed time is kept; a window gives its next opening; follow-ups wait their spacing", () => {
    expect(scheduledAtFor("asap", now)).toBe("2026-11-27T23:00:00.000Z");
    expect(scheduledAtFor({ at: "2026-12-01T09:00:00+01:00" }, now)).toBe("2026-12-01T08:00:00.000Z");
    const window = {
      days: ["mon", "tue"] as const,
      from: "09:00",
      to: "17:00",
      timezone: "America/New_York",
    };
    expect(scheduledAtFor({ window: { ...window, days: [...window.days] } }, now)).toBe(
      "2026-11-30T14:00:00.000Z",
    );
    expect(scheduledAtFor("asap", now, now + 3_600_000)).toBe("2026-11-28T00:00:00.000Z");
  });

  it("names carry the job, date, file and content hash", () => {
    const v = { job: "leads", file: "a.csv", sha256: "0123456789abcdef".repeat(4), now, attempt: 0 };
    expect(campaignName("{job} {date} {file}", v)).toBe("leads 2026-11-27 a.csv #01234567");
    expect(campaignName("{job}", { ...v, attempt: 2 })).toBe("leads #01234567 follow-up 2");
  });
});
