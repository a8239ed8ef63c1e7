import { describe, expect, it } from "vitest";
import { JobDefinition } from "../../src/config/job-definition.ts";
import { emptyTotals } from "../../src/pipeline/model/campaign-totals.ts";
import type { StoredCampaign } from "../../src/pipeline/stores/campaign-store.ts";
import { whatsNext } from "../../src/queue/read-model/whats-next.ts";
import { campaignInfo } from "../support/fixtures.ts";

const NOW = Date.parse("2026-11-23T16:00:00Z");

const kept = (
  id: string,
  at: string,
  state: "active" | "finished" = "active",
  zone?: string,
): StoredCampaign => ({
  info: campaignInfo({ id, name: `c ${id}`, job: "z", state, scheduledAt: at, ...(zone ? { zone } : {}) }),
  totals: emptyTotals(),
  version: 1,
  digest: "",
  createdAt: NOW - 60_000,
  lastChangeAt: 0,
  endedAt: 0,
  sentVersion: 0,
});

describe("the dashboard's next start and next report", () => {
  it("the soonest start still to come of an active campaign, in its zone; each job's next report", () => {
    const def = JobDefinition.parse({
      name: "z",
      inbox: "inbox/z",
      segment: { id: "seg_1" },
      reports: [{ cron: "0 8 * * *", timezone: "America/Los_Angeles", sinks: ["log"] }],
    });
    const next = whatsNext(
      [
        kept("past", "2026-11-23T15:00:00Z"),
        kept("ended", "2026-11-23T16:05:00Z", "finished"),
        kept("later", "2026-11-23T18:00:00Z"),
        kept("soon", "2026-11-23T16:10:00Z", "active", "Europe/London"),
      ],
      new Map([["z", def]]),
      NOW,
    );
    expect(next.start).toEqual({
      id: "soon",
      name: "c soon",
      job: "z",
      at: "2026-11-23T16:10:00Z",
      zone: "Europe/London",
    });
    expect(next.reports).toEqual([{ job: "z", at: "2026-11-24T16:00:00.000Z", zone: "America/Los_Angeles" }]);
    expect(whatsNext([kept("past", "2026-11-23T15:00:00Z")], new Map(), NOW)).toEqual({
      start: null,
      reports: [],
    });
  });
});
