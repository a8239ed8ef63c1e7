import { describe, expect, it } from "vitest";
import { spellPhone } from "../../src/simulator/phone-spelling.ts";

describe("spellPhone: the simulator writes phones as a service might", () => {
  it("as given, without +, nationally, internationally, or each in turn", () => {
    const phone = "+14155550199";
    expect(spellPhone(phone, "as-given")).toBe(phone);
    expect(spellPhone(phone, "digits")).toBe("14155550199");
    expect(spellPhone(phone, "national")).toBe("(415) 555-0199");
    expect(spellPhone(phone, "international")).toBe("+1 415 555 0199");
    expect([0, 1, 2, 3].map((i) => spellPhone(phone, "mixed", i))).toEqual([
      "14155550199",
      "(415) 555-0199",
      "+1 415 555 0199",
      "14155550199",
    ]);
    expect(spellPhone("not a phone", "national")).toBe("not a phone");
  });
});
