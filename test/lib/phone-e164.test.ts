import { describe, expect, it } from "vitest";
import { e164OfServicePhone } from "../../src/lib/phone-e164.ts";

describe("e164OfServicePhone: a phone as the service wrote it, as the number it is", () => {
  it.each([
    ["+14155550199", "US", "+14155550199"],
    ["14155550199", "US", "+14155550199"],
    ["(415) 555-0199", "US", "+14155550199"],
    ["+1 415 555 0199", "US", "+14155550199"],
    [" 415.555.0199 ", "US", "+14155550199"],
    ["447911123456", "US", "+447911123456"],
    ["07911 123456", "GB", "+447911123456"],
    ["+44 7911 123456", undefined, "+447911123456"],
  ] as const)("%s in %s is %s", (written, country, e164) => {
    expect(e164OfServicePhone(written, country)).toBe(e164);
  });

  it.each(["ask for Bob", "", "123", "(415) 555-0199"])("%s, with no country, is no number", (written) => {
    expect(e164OfServicePhone(written)).toBeUndefined();
  });
});
