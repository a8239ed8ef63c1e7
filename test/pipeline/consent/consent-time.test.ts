import { expect, it } from "vitest";
import { parseConsentTime } from "../../../src/pipeline/consent/consent-time.ts";

/** Review of issue 46, finding 11: a day that does not exist is no consent or revocation time. */
it("refuses impossible dates instead of rolling them into the next month; real ones still read as UTC", () => {
  for (const cell of ["2025-02-30", "2025-02-29T10:00:00Z", "2026-04-31 10:00", "2026-13-01", "2026-00-10"])
    expect(parseConsentTime(cell), cell).toBeUndefined();
  for (const cell of ["2/29/2025", "4/31/2026 10:00 AM", "1/6/2026 25:00", "1/6/2026 10:75"])
    expect(parseConsentTime(cell), cell).toBeUndefined();
  expect(parseConsentTime("2024-02-29")).toBe(Date.parse("2024-02-29T00:00:00Z"));
  expect(parseConsentTime("2024-02-29 23:59:59")).toBe(Date.parse("2024-02-29T23:59:59Z"));
  expect(parseConsentTime("2026-01-05T10:00:00+01:00")).toBe(Date.parse("2026-01-05T09:00:00Z"));
  expect(parseConsentTime("2/29/2024 11:59 PM")).toBe(Date.parse("2024-02-29T23:59:00Z"));
});
