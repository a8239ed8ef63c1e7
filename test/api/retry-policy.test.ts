import { describe, expect, it } from "vitest";
import {
  backoffDelay,
  DEFAULT_RETRY,
  type Failure,
  isAmbiguous,
  mayRetry,
  parseRetryAfter,
} from "../../src/api/index.ts";

const status = (s: number): Failure => ({ kind: "status", status: s });
const network = (code?: string): Failure => ({ kind: "network", code });

describe("retry policy", () => {
  it.each([
    [status(500), true, true],
    [status(503), false, false],
    [status(429), false, true],
    [status(429), true, true],
    [status(408), true, true],
    [status(408), false, false],
    [status(400), true, false],
    [status(404), true, false],
    [{ kind: "timeout" } as Failure, true, true],
    [{ kind: "timeout" } as Failure, false, false],
    [network("ECONNREFUSED"), false, true],
    [network("ENOTFOUND"), false, true],
    [network("ECONNRESET"), false, false],
    [network("UND_ERR_SOCKET"), true, true],
    [network(undefined), false, false],
    [{ kind: "unreadable" } as Failure, true, false],
    [{ kind: "unreadable" } as Failure, false, false],
  ])("mayRetry(%j, idempotent=%s) = %s", (failure, idempotent, expected) => {
    expect(mayRetry(failure, idempotent)).toBe(expected);
  });

  it.each([
    [status(500), true],
    [status(408), true],
    [status(429), false],
    [status(400), false],
    [{ kind: "timeout" } as Failure, true],
    [network("ECONNRESET"), true],
    [network("ECONNREFUSED"), false],
    [{ kind: "unreadable" } as Failure, true],
  ])("isAmbiguous(%j) = %s", (failure, expected) => {
    expect(isAmbiguous(failure)).toBe(expected);
  });

  it("backs off exponentially with jitter, within bounds", () => {
    const o = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(1, o, () => 0)).toBe(50);
    expect(backoffDelay(1, o, () => 0.999)).toBeCloseTo(100, 0);
    expect(backoffDelay(3, o, () => 0)).toBe(200);
    expect(backoffDelay(10, o, () => 1)).toBe(1000);
  });

  it("reads Retry-After as seconds or as a date", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("2", now)).toBe(2000);
    expect(parseRetryAfter("0.5", now)).toBe(500);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:03 GMT", now)).toBe(3000);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
