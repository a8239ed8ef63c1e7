import { describe, expect, it } from "vitest";
import { startReason } from "../../../src/pipeline/campaign/start-reason.ts";

describe("why a campaign starts when it does", () => {
  const created = 1_000_000;
  it("names the settle time or the start lead when the hold after its create set the start", () => {
    expect(startReason(created + 60_000, created, { settleMs: 60_000, startLeadMs: 4_000 })).toBe(
      "60 s after its create: VCW_SETTLE_MS",
    );
    expect(startReason(created + 4_000, created, { settleMs: 0, startLeadMs: 4_000 })).toBe(
      "4 s after its create: VCW_START_LEAD_MS, for its check",
    );
    // Reckoned a moment before the create was marked sent.
    expect(startReason(created + 59_990, created, { settleMs: 60_000 })).toBe(
      "60 s after its create: VCW_SETTLE_MS",
    );
  });

  it("names nothing when its window or asked time set it, or nothing held it", () => {
    expect(startReason(created + 3_600_000, created, { settleMs: 60_000 })).toBeUndefined();
    expect(startReason(created, created, {})).toBeUndefined();
  });
});
