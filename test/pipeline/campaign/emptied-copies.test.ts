import { describe, expect, it } from "vitest";
import {
  emptiedInTime,
  showsCalled,
  withCalledTwice,
} from "../../../src/pipeline/campaign/emptied-copies.ts";
import { emptyTotals, isEmptiedAndEmpty } from "../../../src/pipeline/model/campaign-totals.ts";
import { startCheckResult } from "../../support/fixtures.ts";
import { jobJ } from "../../support/own-campaign.ts";

/** Decision 0080's pure parts: when an emptied copy is ended, what counts as called, and the count. */
describe("emptied copies", () => {
  it("ends a copy only when a listing after its deletes shows it unstarted", () => {
    expect(emptiedInTime([{ id: "a", is_started: false }], "a")).toBe(true);
    expect(emptiedInTime([{ id: "a", is_started: true }], "a")).toBe(false);
    expect(emptiedInTime([{ id: "b", is_started: false }], "a")).toBe(false);
    expect(emptiedInTime([{ id: "a", is_started: undefined }], "a")).toBe(false);
  });

  it("counts a call final or under way as made; one queued is not", () => {
    const { polling } = jobJ();
    expect(showsCalled("completed", polling)).toBe(true);
    expect(showsCalled("busy", polling)).toBe(true);
    expect(showsCalled("ringing", polling)).toBe(true);
    expect(showsCalled("queued", polling)).toBe(false);
    expect(showsCalled("", polling)).toBe(false);
  });

  it("adds the calls to the check's calledTwice, and writes none for none", () => {
    const check = startCheckResult({ copiesAdopted: 1 });
    expect(withCalledTwice(check, 42)).toEqual({ ...check, calledTwice: 42 });
    expect(withCalledTwice({ ...check, calledTwice: 3 }, 42).calledTwice).toBe(45);
    expect(withCalledTwice(check, 0)).toEqual(check);
  });

  it("a marked copy with an empty audience at or after its start is over; before it, or unmarked, not", () => {
    const start = Date.parse("2026-11-29T00:00:00.000Z");
    const marked = { scheduledAt: new Date(start).toISOString(), emptiedLate: { checkedOn: "a" } };
    expect(isEmptiedAndEmpty(marked, emptyTotals(), start)).toBe(true);
    expect(isEmptiedAndEmpty(marked, emptyTotals(), start - 1)).toBe(false);
    expect(isEmptiedAndEmpty({ scheduledAt: marked.scheduledAt }, emptyTotals(), start)).toBe(false);
    expect(isEmptiedAndEmpty(marked, { ...emptyTotals(), contacts: 1 }, start)).toBe(false);
  });
});
