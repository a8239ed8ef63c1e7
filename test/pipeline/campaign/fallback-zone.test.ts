import { describe, expect, it } from "vitest";
import { JobDefinition } from "../../../src/config/job-definition.ts";
import { reservationSpan } from "../../../src/pipeline/campaign/reservation-span.ts";
import { callUntilFor } from "../../../src/pipeline/campaign/stopping/stop-checks.ts";
import type { CampaignInfo } from "../../../src/pipeline/model/results.ts";

const WEEK = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
const window = { days: WEEK, from: "09:00", to: "17:00", timezone: "callee" };
const base = { name: "j", inbox: "/nowhere", segment: { name: "j" } };
const campaign = (w: object) => ({ assistant: { id: "a" }, dialer: { id: "d" }, start: { window: w } });

/** The same job in both spellings of its fallback zone (decision 0049). */
const jobs = {
  new: JobDefinition.parse({
    ...base,
    campaign: campaign(window),
    calling: { location: { fallbackTimezone: "America/Chicago" } },
  }),
  old: JobDefinition.parse({
    ...base,
    campaign: campaign({ ...window, fallbackTimezone: "America/Chicago" }),
  }),
};

describe("a campaign of a callee-zone window that carries no zone: the job's fallback zone", () => {
  it.each(Object.entries(jobs))(
    "%s spelling: its reservation span and its close are Chicago's 09:00-17:00",
    async (_, def) => {
      // Friday 20 November 2026, 06:00 in Chicago (CST, UTC-6): the window opens at 09:00 there.
      const now = Date.parse("2026-11-20T12:00:00Z");
      expect(reservationSpan(def, {}, now)).toEqual([
        Date.parse("2026-11-20T15:00:00Z"),
        Date.parse("2026-11-20T23:00:00Z"),
      ]);
      const info: CampaignInfo = {
        id: "c1",
        name: "c1",
        job: "j",
        file: "f.csv",
        sha256: "sha",
        gen: 0,
        segmentId: "s1",
        scheduledAt: "2026-11-20T15:00:00.000Z",
        state: "active",
        attempt: 0,
        followUps: [],
      };
      const stops = { callUntil: async () => undefined };
      expect(await callUntilFor(def, info, { stops } as unknown as Parameters<typeof callUntilFor>[2])).toBe(
        Date.parse("2026-11-20T23:00:00Z"),
      );
    },
  );
});
