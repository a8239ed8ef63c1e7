import { describe, expect, it } from "vitest";
import { redisKeys } from "../../../src/lib/redis-keys.ts";
import { e164InEvery, migratePhoneSpellings } from "../../../src/pipeline/campaign/phone-migration.ts";
import { createCallFrequency } from "../../../src/pipeline/stores/call-frequency.ts";
import { createCallHistory } from "../../../src/pipeline/stores/call-history.ts";
import { createSuppressionList } from "../../../src/pipeline/stores/suppression.ts";
import { useRedis } from "../../support/redis.ts";

describe("migratePhoneSpellings: opt-outs and histories written as the service spelled them become E.164", () => {
  const { redis, prefix } = useRedis();

  it("moves each to its number, merges histories, leaves what is no number, and runs once", async () => {
    const keys = redisKeys(prefix());
    const suppression = createSuppressionList(redis, keys);
    const history = createCallHistory(redis, keys, { keepMs: 600_000 });
    await suppression.add(["(415) 555-0199", "14155550188", "+14155550177", "ask for Bob"]);
    // Reserved at import under E.164; the opt-out recorded by a poll under the service's spelling.
    await createCallFrequency(redis, keys, { keepMs: 600_000 }).reserve(
      "+14155550199",
      "cmp-key",
      1_000,
      0,
      [],
    );
    await history.recordOutcome("+1 415 555 0199", "cmp_1", "opted-out", 2_000);
    await history.recordOutcome("(415) 555-0166", "cmp_1", "no-answer", 2_000);

    const done = await migratePhoneSpellings(redis, keys, ["US"]);
    expect(done).toEqual({ migrated: 4, leftAsWritten: ["ask for Bob"] });
    expect(await suppression.list()).toEqual(["+14155550177", "+14155550188", "+14155550199", "ask for Bob"]);
    expect(await history.get("+14155550199")).toMatchObject({
      lastAt: 1_000,
      attempts: 1,
      outcome: "opted-out",
      outcomeAt: 2_000,
    });
    expect(await redis.hget(keys.calls("+14155550166"), "outcome")).toBe("no-answer");
    expect(await redis.exists(keys.calls("+1 415 555 0199"), keys.calls("(415) 555-0166"))).toBe(0);
    expect(await redis.pttl(keys.calls("+14155550166"))).toBeGreaterThan(0);

    // Once per deployment: a second start reads nothing.
    await suppression.add(["(415) 555-0155"]);
    expect(await migratePhoneSpellings(redis, keys, ["US"])).toBeUndefined();
    expect(await suppression.which(["(415) 555-0155"])).toEqual(new Set(["(415) 555-0155"]));
  });

  it("a number without a country code that differs between the jobs' countries is left as written", () => {
    expect(e164InEvery("(415) 555-0199", ["US", "CA"])).toBe("+14155550199");
    expect(e164InEvery("07911 123456", ["US", "GB"])).toBeUndefined();
    expect(e164InEvery("07911 123456", ["GB"])).toBe("+447911123456");
    expect(e164InEvery("+44 7911 123456", ["US", "GB"])).toBe("+447911123456");
  });
});
