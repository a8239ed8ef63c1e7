import { describe, expect, it } from "vitest";
import { resolveSettings } from "../../src/config/settings.ts";
import { keysExpected, startHoldOf } from "../../src/daemon/calling-service.ts";

/** One rule for the hold after a campaign's create: the daemon (services.ts) and `vcw preview` share it. */
describe("the start hold of a campaign's create", () => {
  it("no settle time when creates carry keys; the settle time otherwise; the start lead always", () => {
    const s = resolveSettings({ VCS_BASE_URL: "http://127.0.0.1:1/api/v1", VCW_SETTLE_MS: "9000" }, "/tmp");
    expect(keysExpected(s)).toBe(false);
    expect(startHoldOf(s, keysExpected(s))).toEqual({ settleMs: 9_000, startLeadMs: 4_000 });
    expect(startHoldOf(s, true)).toEqual({ settleMs: 0, startLeadMs: 4_000 });
  });
});
