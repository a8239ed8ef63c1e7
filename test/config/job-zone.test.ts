import { describe, expect, it } from "vitest";
import { JobDefinition } from "../../src/config/job-definition.ts";
import { zoneOf } from "../../src/config/job-zone.ts";
import { toRow } from "../../src/http/campaign-rows.ts";
import { emptyTotals } from "../../src/pipeline/model/campaign-totals.ts";
import { campaignListing } from "../../src/pipeline/reports/campaign-list.ts";
import type { StoredCampaign } from "../../src/pipeline/stores/campaign-store.ts";
import { campaignInfo } from "../support/fixtures.ts";

const NOW = Date.parse("2026-11-23T16:00:00Z");

const job = (start: unknown) =>
  JobDefinition.parse({
    name: "z",
    inbox: "inbox/z",
    segment: { id: "seg_1" },
    campaign: { assistant: { id: "asst_1" }, dialer: { id: "dial_1" }, audience: "file", start },
  });
const window = (timezone: string, fallbackTimezone?: string) => ({
  window: { days: ["mon"], from: "09:00", to: "17:00", timezone, fallbackTimezone },
});

const stored = (zone?: string): StoredCampaign => ({
  info: campaignInfo({ id: "cmp_z", job: "z", scheduledAt: new Date(NOW).toISOString(), zone }),
  totals: emptyTotals(),
  version: 1,
  digest: "",
  createdAt: NOW,
  lastChangeAt: 0,
  endedAt: 0,
  sentVersion: 0,
});

describe("one zone for a campaign, a report and a job", () => {
  it("its own zone first, else the window's, its fallbackTimezone with callee, else the fallback", () => {
    const callee = job(window("callee", "America/Chicago"));
    expect(zoneOf(callee, "Europe/London")).toBe("Europe/London");
    expect(zoneOf(callee)).toBe("America/Chicago");
    expect(zoneOf(job(window("Europe/Paris")))).toBe("Europe/Paris");
    expect(zoneOf(job("asap"))).toBe("UTC");
    expect(zoneOf(job("asap"), undefined, "Asia/Tokyo")).toBe("Asia/Tokyo");
    expect(zoneOf(undefined)).toBe("UTC");
  });

  it("timezone: callee, a campaign with no zone of its own: the dashboard and vcw campaigns agree", () => {
    // The dashboard's row read UTC here while vcw campaigns read the fallbackTimezone.
    const def = job(window("callee", "America/Chicago"));
    expect(toRow(stored(), def, NOW).zone).toBe("America/Chicago");
    expect(campaignListing(stored(), def, NOW).zone).toBe("America/Chicago");
    expect(toRow(stored("America/Denver"), def, NOW).zone).toBe("America/Denver");
  });
});
