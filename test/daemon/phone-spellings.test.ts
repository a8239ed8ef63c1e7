import { describe, expect, it } from "vitest";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createCallHistory } from "../../src/pipeline/stores/call-history.ts";
import { createSuppressionList } from "../../src/pipeline/stores/suppression.ts";
import type { PhoneSpelling } from "../../src/simulator/phone-spelling.ts";
import { useCallingDaemon } from "../support/calling-daemon.ts";
import { drop, summaryOf, testSettings, waitFor } from "../support/daemon.ts";
import { useRedis } from "../support/redis.ts";

const PHONE = "+14155550199";

describe("an opt-out belongs to the number, not to how the service spells it", () => {
  // Everyone opts out, within about a second of real time.
  const h = useCallingDaemon({
    timeScale: 600,
    callModel: {
      outcomes: { completed: 0, "no-answer": 0, busy: 0, voicemail: 0, failed: 0, "opted-out": 100 },
    },
  });
  const { t } = h;
  const { redis } = useRedis();
  h.afterDaemons(() => t.sim.setPhoneSpelling("as-given"));

  function setup() {
    const job = h.callingJob();
    return { inbox: job.inbox, settings: testSettings(job.home, t.sim.url) };
  }

  it.each<PhoneSpelling>(["digits", "national", "international"])(
    "the service writes the phone %s: the opt-out and the history land on +14155550199, a later import skips it",
    async (spelling) => {
      t.sim.setPhoneSpelling(spelling);
      const s = setup();
      const keys = redisKeys(s.settings.prefix.value);
      await h.start(s.settings);
      drop(s.inbox, "monday.csv", `Phone,First Name\n${PHONE},Ann\n`);

      const suppression = createSuppressionList(redis, keys);
      const history = createCallHistory(redis, keys, { keepMs: 60_000 });
      // The poll that reads the opt-out records the call's outcome in a number's history.
      const outcomeKey = await waitFor(
        async () => {
          // Histories are hashes; beside each, every campaign's reservation is a sorted set (caps).
          for (const key of await redis.keys(`${keys.prefix}:calls:*`))
            if ((await redis.type(key)) === "hash" && (await redis.hexists(key, "outcome"))) return key;
          return undefined;
        },
        20_000,
        "a call's outcome recorded",
      );
      expect(outcomeKey).toBe(keys.calls(PHONE));
      expect(await suppression.list()).toEqual([PHONE]);
      expect(await history.get(PHONE)).toMatchObject({ outcome: "opted-out", attempts: 1 });

      drop(s.inbox, "tuesday.csv", `Phone,First Name\n${PHONE},Ann again\n`);
      const summary = await waitFor(() => summaryOf(s.inbox, "tuesday.csv"), 20_000, "tuesday imported");
      expect(summary.totals).toMatchObject({ total: 1, valid: 0, skipped: 1, codes: { opted_out: 1 } });
    },
    60_000,
  );
});
