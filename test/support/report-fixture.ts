import { emptyTotals } from "../../src/pipeline/model/campaign-totals.ts";
import type { ReportModel } from "../../src/pipeline/reports/model.ts";
import { ReportBuilder } from "../../src/pipeline/reports/report-builder.ts";
import { campaignInfo } from "./fixtures.ts";

/** An hour; the start of the day `builderOf` reports on. */
export const H = 3_600_000;
export const T0 = Date.parse("2026-11-20T08:00:00Z");

/** A day's builder (from T0); an experiment's section is added apart (gather-experiment.ts). */
export const builderOf = () =>
  new ReportBuilder({
    job: "leads",
    period: {
      from: new Date(T0).toISOString(),
      to: new Date(T0 + 24 * H).toISOString(),
      timezone: "UTC",
      label: "day",
    },
    reached: ["completed"],
    optedOut: ["opted-out"],
    now: T0 + 24 * H,
    resultsOf: (id) => `vcw report ${id}`,
  });

/** A day's report of two campaigns (fixed data): 7 calls, 4 reached, 2 meetings, 1 opt-out. */
export function fixedReport(o: { job?: string; pageUrl?: string } = {}): ReportModel {
  const to = Date.parse("2026-11-20T16:00:00Z");
  const from = to - 24 * H;
  const job = o.job ?? "leads";
  const b = new ReportBuilder({
    job,
    period: {
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      timezone: "America/Los_Angeles",
      label: "day",
    },
    reached: ["completed"],
    optedOut: ["opted-out"],
    now: to,
    resultsOf: (id) => `vcw report ${id}`,
  });
  const call = (phone: string, status: string, h: number, extra: object = {}) => ({
    phone,
    status,
    at: from + h * H,
    durationSec: status === "completed" ? 95 : 0,
    sentiment: status === "completed" ? "positive" : "",
    meeting: false,
    transferred: false,
    messageSent: false,
    ...extra,
  });
  b.addCampaign({
    info: campaignInfo({
      id: "cmp_north",
      name: "North leads",
      job,
      zone: "America/New_York",
      state: "finished",
    }),
    totals: { ...emptyTotals(), contacts: 4, byStatus: { completed: 3, "no-answer": 1 }, meetings: 2 },
    zone: "America/New_York",
    calls: [
      call("+12125550101", "completed", 2, { meeting: true }),
      call("+12125550102", "completed", 3, { meeting: true }),
      call("+12125550103", "completed", 3),
      call("+12125550104", "no-answer", 4),
    ],
  });
  b.addCampaign({
    info: campaignInfo({
      id: "cmp_west",
      name: "West leads",
      job,
      zone: "America/Los_Angeles",
      state: "active",
    }),
    totals: { ...emptyTotals(), contacts: 3, byStatus: { completed: 1, "opted-out": 1, busy: 1 } },
    zone: "America/Los_Angeles",
    calls: [
      call("+14155550201", "completed", 5),
      call("+14155550202", "opted-out", 6),
      call("+14155550203", "busy", 7),
    ],
  });
  b.addFile({
    status: "imported",
    file: "leads.csv",
    finishedAt: from + H,
    rows: { total: 9, valid: 7, rejected: 2, duplicates: 0, codes: { phone_excel_scientific: 2 } },
    created: 7,
  });
  const r = b.build();
  return o.pageUrl ? { ...r, pageUrl: o.pageUrl } : r;
}

/**
 * A report in New York of one file called twice: six contacts, one reached by the first campaign,
 * three called again by its follow-up, one of them reached. 2 of 6 contacts, 2 of 9 calls.
 */
export function followUpReport(): ReportModel {
  const to = Date.parse("2026-11-26T05:00:00Z"); // midnight in New York
  const from = to - 24 * H;
  const b = new ReportBuilder({
    job: "leads",
    period: {
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      timezone: "America/New_York",
      label: "day",
    },
    reached: ["completed"],
    optedOut: ["opted-out"],
    now: to + 60_000,
    resultsOf: (id) => `https://vcw.example.com/campaigns/${id}`,
    linksOf: (id) => ({
      page: `https://vcw.example.com/campaigns/${id}`,
      csv: `https://vcw.example.com/campaigns/${id}/results.csv`,
    }),
  });
  const phone = (i: number) => `+1212555010${i}`;
  const call = (i: number, status: string, h: number) => ({
    phone: phone(i),
    status,
    at: from + h * H,
    durationSec: status === "completed" ? 80 : 0,
    sentiment: status === "completed" ? "positive" : "",
    meeting: status === "completed",
    transferred: false,
    messageSent: false,
  });
  const first = ["completed", "no-answer", "no-answer", "no-answer", "busy", "voicemail"];
  b.addCampaign({
    info: campaignInfo({ id: "cmp_first", name: "Leads Monday", job: "leads", state: "finished" }),
    totals: {
      ...emptyTotals(),
      contacts: 6,
      meetings: 1,
      byStatus: { completed: 1, "no-answer": 3, busy: 1, voicemail: 1 },
    },
    zone: "America/New_York",
    calls: first.map((status, i) => call(i, status, 10)),
  });
  b.addCampaign({
    info: campaignInfo({
      id: "cmp_again",
      name: "Leads Monday, again",
      job: "leads",
      state: "finished",
      attempt: 1,
    }),
    totals: { ...emptyTotals(), contacts: 3, meetings: 1, byStatus: { completed: 1, "no-answer": 2 } },
    zone: "America/New_York",
    calls: [call(1, "completed", 15), call(2, "no-answer", 15), call(3, "no-answer", 15)],
  });
  b.addFile({
    status: "imported",
    file: "monday.csv",
    finishedAt: from + 9 * H,
    rows: { total: 7, valid: 6, rejected: 0, duplicates: 1, codes: { duplicate: 1 } },
    created: 6,
  });
  return b.build();
}
