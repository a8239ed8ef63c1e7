import { describe, expect, it } from "vitest";
import { throttledMessage } from "../../src/http/auth.ts";

describe("what a throttled sign-in or bearer attempt is told", () => {
  it("counts the seconds in words that fit: one second, not '1 seconds'", () => {
    // Redis did not count the attempt in half a second: the refusal lasts a second.
    expect(throttledMessage("sign-in", { ms: 1_000, why: "busy" })).toBe(
      "the attempt could not be counted (the service is busy): try again in 1 second",
    );
    expect(throttledMessage("bearer", { ms: 401, why: "attempts" })).toBe(
      "too many wrong bearer tokens from this address: try again in 1 second",
    );
    expect(throttledMessage("sign-in", { ms: 59_001, why: "attempts" })).toBe(
      "too many sign-in attempts from this address: try again in 60 seconds",
    );
  });
});
