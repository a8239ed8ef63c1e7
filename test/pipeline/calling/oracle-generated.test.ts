import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import {
  illegalInstants,
  NANP_TABLE,
  NY,
  REGION_CELLS,
  TABLE,
  type Truth,
  withCells,
  ZONE_CELLS,
} from "../../support/calling-oracle.ts";
import { previewUsRows } from "../../support/calling-preview.ts";

/**
 * Issue 43: the oracle on generated files, each previewed as `vcw preview` does (the file read by
 * the import's reader, its location columns, the one planner). A row is a number of the oracle's
 * tables (US, Canadian, Caribbean) with, or not, a zone cell and a state or province cell that may
 * disagree with it; a file is planned at a random instant of 2026-2027 or at a clock change, for a
 * job under the `us` rules that starts asap or has a window in the callee's zone. Every instant of
 * every campaign and of its hand-back must be legal in every zone the callee may be in (the
 * number's and every cell's), and inside the window there. A callee the `us` rules don't reach, in
 * a job with no window of theirs, is not called (`no_rule_set`). Same seed, same files.
 */
const SEED = 43;
const PREVIEWS = 80;
const MARGIN = 15 * 60_000;

const WINDOWS: (readonly [string, string] | undefined)[] = [
  undefined,
  ["08:00", "21:00"],
  ["07:00", "22:00"],
  ["10:00", "16:00"],
];
const NUMBERS: Truth[] = [...TABLE.filter((t) => !t.cells), ...NANP_TABLE];
const CLOCK_CHANGES = ["2026-03-08T01:59", "2026-03-29T00:30", "2026-10-25T00:30", "2026-11-01T01:30"].map(
  (local) => DateTime.fromISO(local, { zone: NY }).toMillis(),
);
const MINUTE = 60_000;

const row = fc.record({
  number: fc.constantFrom(...NUMBERS),
  timezone: fc.option(fc.constantFrom(...Object.keys(ZONE_CELLS)), { nil: undefined }),
  region: fc.option(fc.constantFrom(...Object.keys(REGION_CELLS)), { nil: undefined }),
});
const preview = fc.record({
  window: fc.constantFrom(...WINDOWS),
  at: fc.oneof(
    fc.constantFrom(...CLOCK_CHANGES),
    fc
      .integer({ min: Date.UTC(2026, 0, 1) / MINUTE, max: Date.UTC(2027, 11, 1) / MINUTE })
      .map((m) => m * MINUTE),
  ),
  rows: fc.uniqueArray(row, { minLength: 1, maxLength: 12, selector: (r) => r.number.phone }),
});

type Generated = typeof preview extends fc.Arbitrary<infer T> ? T : never;

/** One generated file previewed: its illegal instants, and what the preview did with each row. */
async function previewed(p: Generated) {
  const cells = p.rows.map((r) => ({
    ...(r.timezone ? { timezone: r.timezone } : {}),
    ...(r.region ? { region: r.region } : {}),
  }));
  const truths = new Map(p.rows.map((r, i) => [r.number.phone, withCells(r.number, cells[i]!)]));
  const report = await previewUsRows(
    p.rows.map((r, i) => ({ phone: r.number.phone, ...cells[i] })),
    p.window,
    p.at,
  );
  const campaigns = report.campaigns.map((c) => ({
    phones: c.phones,
    scheduledAt: Date.parse(c.scheduledAt),
    callUntil: Date.parse(c.callUntil),
    hours: c.hours,
  }));
  // Per phone-campaign; the instants of Canadian and Caribbean numbers counted apart too.
  const found = { illegal: [] as string[], checked: 0, phoneCampaigns: 0, northAmerican: 0 };
  const extra = p.window ? [p.window] : [];
  for (const c of campaigns)
    for (const phone of c.phones) {
      const truth = truths.get(phone)!;
      const one = illegalInstants([{ ...c, phones: [phone] }], () => truth, extra, MARGIN);
      found.illegal.push(...one.illegal);
      found.checked += one.checked;
      if (one.illegal.length > 0) found.phoneCampaigns += 1;
      if (NANP_TABLE.some((n) => n.phone === phone)) found.northAmerican += one.illegal.length;
    }
  return { ...found, report, truths };
}

describe("the oracle on generated files (issue 43)", () => {
  it(`no illegal instant in ${PREVIEWS} previews of seed ${SEED}`, async () => {
    const files = fc.sample(preview, { seed: SEED, numRuns: PREVIEWS });
    let rows = 0;
    let checked = 0;
    let phoneCampaigns = 0;
    let northAmerican = 0;
    const illegal: string[] = [];
    const misplaced: string[] = [];
    for (const p of files) {
      const r = await previewed(p);
      rows += p.rows.length;
      checked += r.checked;
      phoneCampaigns += r.phoneCampaigns;
      northAmerican += r.northAmerican;
      illegal.push(...r.illegal.map((x) => `${x} (planned at ${new Date(p.at).toISOString()})`));
      const planned = new Set(r.report.campaigns.flatMap((c) => c.phones));
      for (const [phone, truth] of r.truths) {
        // Not silent: a callee no rule set reaches, with no window of theirs, is skipped as such.
        const unruled = truth.outsideUs === true && p.window === undefined;
        if (unruled && planned.has(phone))
          misplaced.push(`${truth.place}: planned with no rule and no window`);
        if (!unruled && !planned.has(phone) && p.window === undefined)
          misplaced.push(`${truth.place}: not planned in an asap job`);
      }
      const reasons = Object.keys(r.report.skipped);
      for (const reason of reasons)
        if (!["outside_hours", "no_rule_set"].includes(reason)) misplaced.push(`skipped as ${reason}`);
    }
    console.log(
      `generated oracle (seed ${SEED}, ${PREVIEWS} previews): ${rows} rows, ${checked} instants checked, ${illegal.length} illegal (${northAmerican} of Canadian or Caribbean numbers) in ${phoneCampaigns} phone-campaigns`,
    );
    expect(checked).toBeGreaterThan(10_000);
    expect(illegal.slice(0, 20), `${illegal.length} illegal instants`).toEqual([]);
    expect(misplaced).toEqual([]);
    // The shapes asked for are there: cells that disagree with the number, both cells, North American numbers.
    const all = files.flatMap((p) => p.rows);
    const disagree = all.filter(
      (r) => r.timezone && !ZONE_CELLS[r.timezone]!.every((z) => r.number.zones.includes(z)),
    );
    expect(disagree.length).toBeGreaterThan(50);
    expect(all.filter((r) => r.timezone && r.region).length).toBeGreaterThan(50);
    expect(all.filter((r) => r.number.outsideUs).length).toBeGreaterThan(50);
  }, 300_000);
});
