import { describe, expect, it } from "vitest";
import { describeSettings, resolveSettings } from "../../src/config/settings.ts";
import { isLoopback, parseListenAddress } from "../../src/lib/listen-address.ts";
import { maskPhone, maskPhonesIn } from "../../src/lib/mask-phone.ts";

describe("VCW_HTTP_ADDR and VCW_HTTP_TOKEN", () => {
  it("reads host:port, [v6]:port, a bare port, port 0 and off; refuses anything else", () => {
    expect(parseListenAddress("127.0.0.1:9400")).toEqual({ host: "127.0.0.1", port: 9400 });
    expect(parseListenAddress("0.0.0.0:0")).toEqual({ host: "0.0.0.0", port: 0 });
    expect(parseListenAddress("[::1]:9401")).toEqual({ host: "::1", port: 9401 });
    expect(parseListenAddress("9402")).toEqual({ host: "127.0.0.1", port: 9402 });
    expect(parseListenAddress("localhost:9403")).toEqual({ host: "localhost", port: 9403 });
    expect(parseListenAddress("off")).toBeUndefined();
    for (const bad of ["127.0.0.1", "127.0.0.1:99999", ":9400", "a b:1", "http://x:1"])
      expect(() => parseListenAddress(bad), bad).toThrow(/VCW_HTTP_ADDR must be host:port/);
  });

  it("knows loopback from the rest", () => {
    for (const h of ["127.0.0.1", "127.8.9.10", "::1", "localhost"]) expect(isLoopback(h), h).toBe(true);
    for (const h of ["0.0.0.0", "::", "10.0.0.1", "192.168.1.2", "vcw.example.com"])
      expect(isLoopback(h), h).toBe(false);
  });

  it("defaults to 127.0.0.1:9400 without a token; a short token is refused; the token is never printed", () => {
    const s = resolveSettings({}, "/tmp");
    expect(s.httpAddr.value).toEqual({ host: "127.0.0.1", port: 9400 });
    expect(s.httpToken.value).toBeUndefined();
    expect(() => resolveSettings({ VCW_HTTP_TOKEN: "short" }, "/tmp")).toThrow(/at least 16 characters/);
    const token = "a-token-of-24-characters";
    const lines = describeSettings(resolveSettings({ VCW_HTTP_TOKEN: token, VCW_HTTP_ADDR: "off" }, "/tmp"));
    expect(lines).toContain("httpToken: (hidden) from $VCW_HTTP_TOKEN");
    expect(lines).toContain("httpAddr: off ($VCW_HTTP_ADDR)");
    expect(lines.join("\n")).not.toContain(token);
  });
});

describe("phone masking", () => {
  it("keeps the first two and last two digits of a phone", () => {
    expect(maskPhone("+14152000001")).toBe("+14•••••••01");
    expect(maskPhone("+44 20 7946 0958")).toBe("+44 •• •••• ••58");
  });

  it("masks phone-like runs in a text and leaves dates, ids and short numbers", () => {
    expect(maskPhonesIn("row 12: phone 4152000001 is invalid")).toBe("row 12: phone 41••••••01 is invalid");
    expect(maskPhonesIn("(415) 555-0123")).toBe("(41•) •••-••23");
    // A phone beside a date-time is masked all the same.
    expect(maskPhonesIn("2026-11-29 08:00 call 4152000001")).toBe("2026-11-29 08:00 call 41••••••01");
    for (const text of [
      "2026-12-01T09:00:00Z",
      "cmp_12345",
      "campaign-abc-1234567890123-1",
      "attempt 3 of 20",
      "leads 2026-11-23 tuesday.csv #ce6977df",
      // A date with its time, as the daemon logs a start ("at 2026-11-29 08:00 PST"): was "20••-••-•• 08:00".
      "at 2026-11-29 08:00 PST",
      "2026-11-29 8:05",
    ])
      expect(maskPhonesIn(text)).toBe(text);
  });
});
