import { describe, expect, it } from "vitest";
import type { CallFact } from "../../../src/pipeline/reports/figures.ts";
import { reportEmail } from "../../../src/pipeline/reports/report-email.ts";
import { reportHtml } from "../../../src/pipeline/reports/report-html.ts";
import { reportBlocks } from "../../../src/pipeline/reports/report-slack.ts";
import { reportText } from "../../../src/pipeline/reports/report-text.ts";
import { emptyTotals } from "../../../src/pipeline/results/campaign-totals.ts";
import { campaignInfo } from "../../support/fixtures.ts";
import { builderOf, H, T0 } from "../../support/report-fixture.ts";

/** `n` contacts from `from`, the first `k` of them reached (a meeting each) and talking 60 s. */
function calls(
  from: number,
  n: number,
  k: number,
  o: { optedOut?: number; status?: string } = {},
): CallFact[] {
  return Array.from({ length: n }, (_, i) => {
    const reached = i < k;
    const optedOut = !reached && i < k + (o.optedOut ?? 0);
    return {
      phone: `+1555${String(from + i).padStart(7, "0")}`,
      status: reached ? "completed" : optedOut ? "opted-out" : (o.status ?? "no-answer"),
      at: T0 + H + i,
      durationSec: reached ? 60 : 0,
      sentiment: reached ? "positive" : "",
      meeting: reached,
      transferred: false,
      messageSent: false,
    };
  });
}

function report(
  metric: "reached" | "meetings",
  groups: { variant: string; calls: CallFact[]; attempt?: number }[],
) {
  const b = builderOf(metric);
  for (const [i, g] of groups.entries())
    b.addCampaign({
      info: campaignInfo({
        id: `c${i}`,
        variant: g.variant,
        attempt: g.attempt ?? 0,
        state: "finished",
        scheduledAt: new Date(T0).toISOString(),
      }),
      totals: { ...emptyTotals(), contacts: g.calls.length },
      zone: "UTC",
      calls: g.calls,
    });
  return b.build();
}

describe("the report's variants", () => {
  it("per contact, with Wilson intervals; b against a with Newcombe's interval (56/70 vs 48/80: +0.0524 to +0.3339)", () => {
    const r = report("reached", [
      { variant: "a", calls: calls(0, 80, 48, { optedOut: 4 }) },
      { variant: "b", calls: calls(1000, 70, 56) },
    ]);
    const [a, b] = r.variants!;
    expect(a).toMatchObject({
      name: "a",
      contactsCalled: 80,
      calls: 80,
      reached: 48,
      meetings: 48,
      optedOut: 4,
    });
    expect(a!.reachedRate.rate).toBe(0.6);
    expect(a!.optOutRate).toMatchObject({ rate: 0.05 });
    expect(a!.talkTime).toEqual({ totalSec: 48 * 60, perContactSec: 36 });
    expect(a!.sentiment).toEqual({ positive: 48 });
    expect(a!.versus).toBeUndefined();
    expect(b!.versus).toMatchObject({
      against: "a",
      metric: "reached",
      verdict: "better",
      difference: { value: 0.2, low: 0.0524, high: 0.3339 },
    });
    expect(r.experiment!.summary).toBe(
      "b is better than a on contacts reached: 80% of 70 vs 60% of 80 (difference +20 pts, 95% interval +5.2 pts to +33.4 pts); the data tells them apart.",
    );
    const text = reportText(r);
    expect(text).toContain("Experiment, compared on contacts reached:");
    expect(text).toMatch(/- b: 70 contacts, 70 calls; reached 56 80% \(95%: /);
  });

  it("a contact called again (a follow-up) counts once, reached if any call reached it; undecided says how many more", () => {
    const first = calls(0, 10, 3);
    // Three of a's contacts reached by a follow-up: 6 of 10 in all.
    const again = calls(3, 3, 3);
    const r = report("meetings", [
      { variant: "a", calls: first },
      { variant: "a", calls: again, attempt: 1 },
      { variant: "b", calls: calls(500, 10, 5) },
    ]);
    const [a, b] = r.variants!;
    expect(a).toMatchObject({ contactsCalled: 10, calls: 13, reached: 6, meetings: 6 });
    // 0.5 vs 0.6: 388 contacts per variant (Fleiss), 10 called: 378 more.
    expect(b!.versus).toMatchObject({ verdict: "undecided", moreContactsPerVariant: 378 });
    expect(r.experiment!.summary).toMatch(
      /^b vs a on contacts with a meeting booked: 50% of 10 vs 60% of 10 .*the data cannot tell them apart yet: about 378 more contacts per variant would, if the difference holds\.$/,
    );
  });

  it("the page, Slack and the e-mail show the section: intervals as bars on a 0-100% track, the verdict", async () => {
    const r = report("reached", [
      { variant: "a", calls: calls(0, 80, 48) },
      { variant: "b", calls: calls(1000, 70, 56) },
    ]);
    const html = reportHtml(r, []);
    expect(html).toContain('<section id="experiment"><h2>Experiment: contacts reached</h2>');
    const b = r.variants![1]!.reachedRate;
    expect(html).toContain(`left:${(b.low * 100).toFixed(1)}%;width:${((b.high - b.low) * 100).toFixed(1)}%`);
    expect(html).toContain('<p class="verdict">b is better than a on contacts reached');
    const slack = JSON.stringify(reportBlocks(r).blocks);
    expect(slack).toContain("*Experiment: contacts reached*");
    expect(slack).toContain("• *b*: 80% of 70 (95%: ");
    const email = await reportEmail(r);
    expect(email.html).toContain('id="experiment"');
    expect(email.text).toContain("b is better than a on contacts reached");
    expect(reportHtml(builderOf().build(), [])).not.toContain("experiment");
  });

  it("no variant or a lone one called: no comparison, said so; a job without variants has no section", () => {
    const r = report("reached", [{ variant: "a", calls: calls(0, 5, 1) }]);
    expect(r.experiment!.summary).toMatch(/^No comparison yet: only a has calls/);
    const plain = builderOf().build();
    expect(plain.variants).toBeUndefined();
    expect(reportText(plain)).not.toContain("Experiment");
  });
});
