import { describe, expect, it } from "vitest";
import { fileFactOf } from "../../../src/pipeline/reports/import-facts.ts";
import { repairsText } from "../../../src/pipeline/reports/phrases.ts";

/** Decision 0065: late copies taken on and calls made twice, as the report says them. */
describe("late campaign copies in the report", () => {
  it("a summary's adopted copies and calls made twice reach the report's repairs line", () => {
    const summary = {
      status: "imported",
      original: "leads.csv",
      finishedAt: "2026-11-29T02:00:00Z",
      checksBeforeStart: {
        duplicatesRemoved: 0,
        campaignsRepaired: 0,
        withdrawn: 0,
        copiesAdopted: 1,
        calledTwice: 20,
      },
    };
    const repairs = fileFactOf(JSON.stringify(summary))?.repairs;
    expect(repairs).toEqual({
      duplicatesRemoved: 0,
      campaignsRepaired: 0,
      withdrawn: 0,
      copiesAdopted: 1,
      calledTwice: 20,
    });
    expect(repairsText(repairs!)).toBe(
      "0 duplicate contacts removed, 0 campaigns made again, 0 contacts withdrawn, 1 late copy of a campaign taken on, 20 calls made twice",
    );
  });

  it("says nothing of late copies when there were none", () => {
    expect(repairsText({ duplicatesRemoved: 1, campaignsRepaired: 0, withdrawn: 0 })).toBe(
      "1 duplicate contact removed, 0 campaigns made again, 0 contacts withdrawn",
    );
  });
});
