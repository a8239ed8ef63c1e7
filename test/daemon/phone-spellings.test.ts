import { randomBytes } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createCallHistory } from "../../src/pipeline/stores/call-history.ts";
import { createSuppressionList } from "../../src/pipeline/stores/suppression.ts";
import type { PhoneSpelling } from "../../src/simulator/phone-spelling.ts";
import { callingJob } from "../support/calling-job.ts";
import { drop, quietLogger, summaryOf, testSettings, waitFor } from "../support/daemon.ts";
import { validAssistant, validDialer } from "../support/fixtures.ts";
import { useRedis } from "../support/redis.ts";
import { useSimulator } from "../support/simulator.ts";

const PHONE = "+14155550199";

describe("an opt-out belongs to the number, not to how the service spells it", () => {
  // Everyone opts out, within about a second of real time.
  const t = useSimulator({
    timeScale: 600,
    callModel: {
      outcomes: { completed: 0, "no-answer": 0, busy: 0, voicemail: 0, failed: 0, "opted-out": 100 },
    },
  });
  const { redis } = useRedis();
  let assistant: string;
  let dialerId: string;
  let daemon: Daemon | undefined;

  beforeAll(async () => {
    assistant = `Ava ${randomBytes(3).toString("hex")}`;
    await t.client.assistants.create(validAssistant({ name: assistant }));
    dialerId = (await t.client.dialers.create(validDialer())).id!;
  });
  afterEach(async () => {
    await daemon?.close();
    daemon = undefined;
    t.sim.setPhoneSpelling("as-given");
  });

  function setup() {
    const job = callingJob({ assistant: { name: assistant }, dialerId });
    return { inbox: job.inbox, settings: testSettings(job.home, t.sim.url) };
  }

  it.each<PhoneSpelling>(["digits", "national", "international"])(
    "the service writes the phone %s: the opt-out and the history land on +14155550199, a later import skips it",
    async (spelling) => {
      t.sim.setPhoneSpelling(spelling);
      const s = setup();
      const keys = redisKeys(s.settings.prefix.value);
      daemon = await startDaemon({ settings: s.settings, logger: quietLogger(), watch: true, work: true });
      await daemon.ready;
      drop(s.inbox, "monday.csv", `Phone,First Name\n${PHONE},Ann\n`);

      const suppression = createSuppressionList(redis, keys);
      const history = createCallHistory(redis, keys, { keepMs: 60_000 });
      // The poll that reads the opt-out records the call's outcome in a number's history.
      const outcomeKey = await waitFor(
        async () => {
          for (const key of await redis.keys(`${keys.prefix}:calls:*`))
            if (await redis.hexists(key, "outcome")) return key;
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
