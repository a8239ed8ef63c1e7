import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { JobDefinition } from "../../../src/config/job-definition.ts";
import { gatherFacts } from "../../../src/pipeline/calling/gather-facts.ts";
import { planCampaigns } from "../../../src/pipeline/calling/plan-campaigns.ts";
import { planSettingsOf } from "../../../src/pipeline/calling/plan-settings.ts";
import { createCallFrequency } from "../../../src/pipeline/stores/call-frequency.ts";
import { createCallHistory } from "../../../src/pipeline/stores/call-history.ts";
import { tempDir } from "../../support/files.ts";
import { useRedis } from "../../support/redis.ts";

/**
 * Issue 31, Also: the preview said a Florida number would be called at 19:43 when the daemon's
 * reservation refused it as recently called (another job's call planned later). The plan and the
 * reservation now apply one cooldown, both ways, at the campaign's start: whatever another job
 * holds, a number the plan puts in a campaign is reserved, and one it skips would be refused.
 */
const DAY = 86_400_000;
const HOUR = 3_600_000;

describe("the preview and the daemon's reservation agree on recently called numbers", () => {
  const { redis, keys: freshKeys } = useRedis();

  it("for another job's call before or after, with a cooldown of 0, 1 or 7 days", async () => {
    const at = DateTime.fromISO("2027-01-12T19:30", { zone: "America/New_York" }).toMillis();
    const offsets = [-8 * DAY, -2 * DAY, -3 * HOUR, 1 * HOUR, 13 * HOUR, 30 * HOUR, 3 * DAY, 9 * DAY];
    let planned = 0;
    let skipped = 0;
    for (const recall of [0, 1, 7]) {
      const keys = freshKeys();
      const history = createCallHistory(redis, keys, { keepMs: 30 * DAY });
      const frequency = createCallFrequency(redis, keys, { keepMs: 30 * DAY });
      const phones = offsets.map((_, i) => `+1305555${String(2000 + i)}`);
      // Another job holds each number, at a time before or after the plan's instant.
      for (const [i, offset] of offsets.entries())
        expect(await frequency.reserve(phones[i]!, `other:sha:0:0:${i}`, at + offset, 0, [])).toBe("ok");
      const dir = tempDir("vcw-agree-");
      writeFileSync(
        join(dir, "f.csv"),
        `First Name,Phone\n${phones.map((p, i) => `C${i},${p}`).join("\n")}\n`,
      );
      const def = JobDefinition.parse({
        name: "j",
        inbox: dir,
        segment: { name: "j" },
        contacts: { country: "US", recallAfterDays: recall },
        campaign: { assistant: { id: "a" }, dialer: { id: "d" } },
        calling: { rules: ["us"], callsPerMinute: 100 },
      });
      const facts = await gatherFacts(
        def,
        join(dir, "f.csv"),
        {
          suppressed: async () => new Set(),
          lastCalled: (p) => history.lastCalls(p),
          callTimes: (p, now) => frequency.callTimes(p, now),
        },
        at,
      );
      const plan = planCampaigns(facts.contacts, planSettingsOf(def, at, at, undefined));
      for (const c of plan.campaigns)
        for (const phone of c.phones) {
          const r = await frequency.reserve(
            phone,
            `j:sha:0:0:${c.label}`,
            c.scheduledAt,
            recall * DAY,
            c.caps,
            false,
            c.callUntil,
          );
          expect(
            r,
            `${phone} planned at ${new Date(c.scheduledAt).toISOString()}, cooldown ${recall} d`,
          ).toBe("ok");
          planned += 1;
        }
      for (const s of plan.skips) {
        expect(s.reason).toBe("recently_called");
        skipped += 1;
      }
    }
    expect(planned).toBeGreaterThan(0);
    expect(skipped).toBeGreaterThan(0);
  });
});
