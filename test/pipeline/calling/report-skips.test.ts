import { describe, expect, it } from "vitest";
import { PeriodFigures } from "../../../src/pipeline/reports/figures.ts";
import { fileFactOf } from "../../../src/pipeline/reports/import-facts.ts";
import { otherReasons } from "../../../src/pipeline/reports/phrases.ts";

describe("calling-rule skips in the report", () => {
  it("a summary's audience.skipped reaches the report's not-called figures, by reason", () => {
    const summary = (skipped: Record<string, number>) =>
      JSON.stringify({
        status: "imported",
        original: "f.csv",
        finishedAt: new Date().toISOString(),
        totals: { total: 10, valid: 10, rejected: 0, duplicates: 0, codes: {} },
        audience: { optedOut: skipped.opted_out ?? 0, recentlyCalled: 0, skipped },
      });
    const figures = new PeriodFigures(new Set(), new Set());
    figures.addFile(fileFactOf(summary({ opted_out: 1, frequency_cap: 2, outside_hours: 1 }))!);
    figures.addFile(fileFactOf(summary({ frequency_cap: 1, call_by_passed: 3 }))!);
    const { files } = figures.finish();
    expect(files.notCalled).toEqual({
      optedOut: 1,
      recentlyCalled: 0,
      byReason: { frequency_cap: 3, outside_hours: 1, call_by_passed: 3 },
    });
    // In words (issue 40): the codes stay in the model, for scripts.
    expect(otherReasons(files.notCalled.byReason)).toBe(
      ", over a frequency cap 3, no calling hours left 1, past its call-by date 3",
    );
  });
});
