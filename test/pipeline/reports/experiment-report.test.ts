import { describe, expect, it } from "vitest";
import { ExperimentFigures } from "../../../src/pipeline/reports/experiment-figures.ts";
import { experimentSection, type SectionSetup } from "../../../src/pipeline/reports/experiment-section.ts";
import type { CallFact } from "../../../src/pipeline/reports/figures.ts";
import type { ReportModel } from "../../../src/pipeline/reports/model.ts";
import { ReportBuilder } from "../../../src/pipeline/reports/report-builder.ts";
import { reportHtml } from "../../../src/pipeline/reports/report-html.ts";
import { reportText } from "../../../src/pipeline/reports/report-text.ts";
import { assignmentKey } from "../../../src/pipeline/variant-assignment.ts";
import { reportEmail } from "../../../src/sinks/email/report-email.ts";
import { reportBlocks } from "../../../src/sinks/slack/report-slack.ts";
import { campaignInfo } from "../../support/fixtures.ts";

const T0 = Date.parse("2026-11-20T08:00:00Z");
const H = 3_600_000;

/** `n` contacts from `from`, the first `k` of them reached (a meeting each) and talking 60 s. */
function calls(from: number, n: number, k: number, o: { optedOut?: number } = {}): CallFact[] {
  return Array.from({ length: n }, (_, i) => {
    const reached = i < k;
    const optedOut = !reached && i < k + (o.optedOut ?? 0);
    return {
      phone: `+1555${String(from + i).padStart(7, "0")}`,
      status: reached ? "completed" : optedOut ? "opted-out" : "no-answer",
      at: T0 + H + i,
      durationSec: reached ? 60 : 0,
      sentiment: reached ? "positive" : "",
      meeting: reached,
      transferred: false,
      messageSent: false,
    };
  });
}

interface Group {
  variant: string;
  calls: CallFact[];
  attempt?: number;
  /** Its planned start, hours after T0. */
  hour?: number;
  zone?: string;
  state?: "active" | "finished";
}

const setupOf = (over: Partial<SectionSetup> = {}): SectionSetup => ({
  variants: [
    { name: "a", share: 1 },
    { name: "b", share: 1 },
  ],
  metric: "reached",
  reached: new Set(["completed"]),
  optedOut: new Set(["opted-out"]),
  decisions: [],
  plannedContacts: 5000,
  ...over,
});

/** The experiment's section over the groups' campaigns (each a campaign of its own). */
function section(groups: Group[], over: Partial<SectionSetup> = {}) {
  const s = setupOf(over);
  const f = new ExperimentFigures(s);
  for (const [i, g] of groups.entries())
    f.addCampaign({
      info: campaignInfo({
        id: `c${i}`,
        variant: g.variant,
        attempt: g.attempt ?? 0,
        state: g.state ?? "finished",
        scheduledAt: new Date(T0 + (g.hour ?? 0) * H).toISOString(),
        audience: g.calls.length,
        ...(g.zone ? { zone: g.zone } : {}),
      }),
      calls: g.calls,
    });
  return experimentSection(f, s);
}

/** A day's report of a job without variants, with the section added as gatherReport adds it. */
function report(groups: Group[], over: Partial<SectionSetup> = {}): ReportModel {
  const b = new ReportBuilder({
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
  return { ...b.build(), ...section(groups, over) };
}

describe("the experiment's section", () => {
  it("per contact, Wilson intervals; b against a: the fixed-horizon interval kept and labelled, the verdict the always-valid one's", () => {
    // 56/70 vs 48/80: Newcombe's fixed 95% interval +5.2 to +33.4 pts is clear of zero, but one
    // look's answer; always-valid at 150 contacts of a pair planned for 5,000, it is not.
    const r = section([
      { variant: "a", calls: calls(0, 80, 48, { optedOut: 4 }) },
      { variant: "b", calls: calls(1000, 70, 56) },
    ]);
    const [a, b] = r.variants;
    expect(a).toMatchObject({
      name: "a",
      contactsCalled: 80,
      calls: 80,
      reached: 48,
      meetings: 48,
      optedOut: 4,
      share: 0.5,
    });
    expect(a!.reachedRate.rate).toBe(0.6);
    expect(a!.talkTime).toEqual({ totalSec: 48 * 60, perContactSec: 36 });
    expect(a!.sentiment).toEqual({ positive: 48 });
    expect(a!.versus).toBeUndefined();
    expect(b!.versus).toMatchObject({
      against: "a",
      metric: "reached",
      verdict: "undecided",
      difference: { value: 0.2, low: 0.0524, high: 0.3339 },
    });
    expect(b!.versus!.sequential!.low).toBeLessThan(0);
    expect(b!.versus!.sequential!.level).toBe(0.05);
    expect(r.experiment.summary).toMatch(
      /^b vs a on contacts reached: 80% of 70 vs 60% of 80 \(difference \+20 pts; always-valid interval −[\d.]+ pts to \+[\d.]+ pts, at 5%; fixed-horizon 95% interval \+5\.2 pts to \+33\.4 pts\); the data cannot tell them apart yet\.$/,
    );
    expect(r.experiment.corrections).toMatch(
      /always-valid intervals.*The primary metric \(contacts reached\) keeps 5% over the one pair\. Guardrail metrics \(opt-outs, transfers, talk time\) share another 5%: 1\.67% each/,
    );
    // The post-hoc "about N more contacts per variant" line is gone.
    expect(JSON.stringify(r)).not.toMatch(/more contacts per variant|moreContactsPerVariant/);
  });

  it("tells them apart when the always-valid interval does (600/1000 vs 700/1000), on every rendering", async () => {
    const r = report([
      { variant: "a", calls: calls(0, 1000, 600) },
      { variant: "b", calls: calls(10_000, 1000, 700) },
    ]);
    expect(r.variants![1]!.versus).toMatchObject({ verdict: "better" });
    expect(r.experiment!.summary).toMatch(
      /^b is better than a on contacts reached: .*the data tells them apart\.$/,
    );
    const text = reportText(r);
    expect(text).toContain("Experiment, compared on contacts reached:");
    expect(text).toMatch(/- b: 1,000 contacts, 1,000 calls; reached 700 70% \(95%: /);
    expect(text).toMatch(/How it is judged: Decisions read always-valid intervals/);
    const html = reportHtml(r, []);
    expect(html).toContain('<section id="experiment"><h2>Experiment: contacts reached</h2>');
    const b = r.variants![1]!.reachedRate;
    expect(html).toContain(`left:${(b.low * 100).toFixed(1)}%;width:${((b.high - b.low) * 100).toFixed(1)}%`);
    expect(html).toContain('<p class="verdict">b is better than a on contacts reached');
    expect(html).toMatch(/always-valid \+[\d.]+ pts to \+[\d.]+ pts<br>fixed-horizon/);
    const slack = JSON.stringify(reportBlocks(r).blocks);
    expect(slack).toContain("*Experiment: contacts reached*");
    const email = await reportEmail(r);
    expect(email.html).toContain('id="experiment"');
    expect(email.text).toContain("b is better than a on contacts reached");
  });

  it("a contact called again (a follow-up, a later file) counts once, reached if any call reached it", () => {
    const r = section([
      { variant: "a", calls: calls(0, 10, 3) },
      // Three of a's contacts reached by a follow-up a day later: 6 of 10 in all, whatever the period.
      { variant: "a", calls: calls(3, 3, 3), attempt: 1, hour: 24 },
      { variant: "b", calls: calls(500, 10, 5) },
    ]);
    expect(r.variants[0]).toMatchObject({ contactsCalled: 10, calls: 13, reached: 6, meetings: 6 });
  });

  it("a contact called under two variants is counted, and kept under the first", () => {
    const r = section([
      { variant: "a", calls: calls(0, 10, 3) },
      { variant: "b", calls: calls(5, 10, 5), hour: 48 },
    ]);
    expect(r.experiment.exposedToTwo).toBe(5);
    expect(r.variants.map((v) => v.contactsCalled)).toEqual([10, 5]);
    expect(reportText({ ...report([]), ...r })).toContain(
      "Contacts called under two variants: 5 (counted under the first).",
    );
  });

  it("after a stop, comparisons with the stopped variant cover the time both were open, and say so", () => {
    const groups: Group[] = [
      { variant: "a", calls: calls(0, 1000, 300) },
      { variant: "b", calls: calls(10_000, 1000, 300) },
      // After a's stop at hour 10: b alone, at a better rate (a later season): not compared.
      { variant: "b", calls: calls(20_000, 3000, 2400), hour: 12 },
    ];
    const stopped = section(groups, { decisions: [{ variant: "a", at: T0 + 10 * H, action: "stop" }] });
    expect(stopped.variants[1]).toMatchObject({ contactsCalled: 4000 });
    expect(stopped.variants[1]!.versus).toMatchObject({ verdict: "undecided", difference: { value: 0 } });
    expect(stopped.experiment.concurrent).toMatch(
      /^Comparisons with a variant decided about cover the contacts planned before its decision, while both were open \(a stopped 2026-11-20T18:00:00.000Z\)\.$/,
    );
    const ignored = section(groups);
    expect(ignored.variants[1]!.versus).toMatchObject({ verdict: "better" });
  });

  it("a refused campaign of b: the sample ratio check fires, says why b's contacts are missing, and the summary calls the comparison unreliable", () => {
    // 100 given each variant in two zones; b's second zone's campaign was never made.
    const key = (variant: string, zone: string) =>
      assignmentKey({ sha256: "0".repeat(64), gen: 1, zone, variant });
    const assignments = [
      { key: key("a", "east"), variant: "a", assigned: 500, setAside: 0, at: T0 },
      { key: key("a", "west"), variant: "a", assigned: 500, setAside: 10, at: T0 },
      { key: key("b", "east"), variant: "b", assigned: 500, setAside: 0, at: T0 },
      { key: key("b", "west"), variant: "b", assigned: 500, setAside: 0, at: T0 },
    ];
    const r = report(
      [
        { variant: "a", zone: "east", calls: calls(0, 500, 150) },
        { variant: "a", zone: "west", calls: calls(1000, 480, 144), state: "active" },
        { variant: "b", zone: "east", calls: calls(5000, 500, 150) },
      ],
      { assignments },
    );
    const [a, b] = r.variants!;
    expect(a).toMatchObject({ assigned: 1000, missing: { "set-aside": 10, waiting: 10 } });
    expect(b).toMatchObject({ assigned: 1000, missing: { "no-campaign": 500 } });
    const [given, called] = r.experiment!.sampleRatio!;
    expect(given).toMatchObject({ of: "assigned", mismatch: false, p: 1 });
    expect(called).toMatchObject({ of: "called", mismatch: true });
    expect(called!.p).toBeLessThan(1e-20);
    expect(called!.words).toMatch(
      /^Sample ratio mismatch \(p = [\d.]+e-\d+ < 0\.001\): contacts called a 980 of 1,000 given it \(98%\), b 500 of 1,000 given it \(50%\); missing: a: 10 set aside before the campaign \(cooldown or caps\), 10 still waiting in a running campaign; b: 500 in no campaign made \(refused, failed or not made yet\)\. The comparison is unreliable while this stands: the guardrail makes no comparison stop\.$/,
    );
    expect(r.experiment!.summary).toMatch(/^The comparison is unreliable: Sample ratio mismatch/);
    expect(reportHtml(r, [])).toMatch(/<p class="srm">Sample ratio mismatch \(p = /);
    expect(reportText(r)).toContain("The comparison is unreliable: Sample ratio mismatch");
  });

  it("guardrail metrics: opt-outs against the limit, transfers and talk time against the first variant, at their share of 5%", () => {
    const r = section(
      [
        { variant: "a", calls: calls(0, 1000, 300, { optedOut: 10 }) },
        { variant: "b", calls: calls(10_000, 1000, 600, { optedOut: 100 }) },
      ],
      { maxOptOutRate: 0.02 },
    );
    const [a, b] = r.variants;
    expect(a!.guardrails!.map((g) => g.metric)).toEqual(["optOuts"]);
    expect(a!.guardrails![0]).toMatchObject({ limit: 0.02, value: 0.01, flagged: false });
    expect(b!.guardrails!.map((g) => g.metric)).toEqual(["optOuts", "transfers", "talkTime"]);
    // Holm across the two variants at 5% / 3: b clears at its first step, 5% / 3 / 2.
    expect(b!.guardrails![0]).toMatchObject({ value: 0.1, flagged: true, level: 0.05 / 3 / 2 });
    // Talk time: 600 of b's contacts talked 60 s against 300 of a's: +18 s a contact.
    expect(b!.guardrails![2]).toMatchObject({ metric: "talkTime", value: 18, flagged: true });
    expect(reportText({ ...report([]), ...r })).toMatch(
      /guardrails against a: opt-outs 10% \(always-valid [\d.]+%–[\d.]+%; limit 2%\) \[flagged\]; transfers 0 pts \(always-valid 0 pts to 0 pts\); talk time \+18 s \(always-valid \+1\d s to \+2\d s\) \[flagged\]/,
    );
  });

  it("no variant or a lone one called: no comparison, said so; a job without variants has no section", () => {
    const r = section([{ variant: "a", calls: calls(0, 5, 1) }]);
    expect(r.experiment.summary).toMatch(/^No comparison yet: only a has calls/);
    const plain = report([]);
    const { variants: _v, experiment: _e, ...rest } = plain;
    expect(reportText(rest as ReportModel)).not.toContain("Experiment");
    expect(reportHtml(rest as ReportModel, [])).not.toContain("experiment");
  });
});
