import { describe, expect, it } from "vitest";
import { callsOwnSegment } from "../../../src/pipeline/campaign/own-segment.ts";

describe("whether a campaign calls a segment of its own", () => {
  const standing = { campaign: { audience: "segment" } } as Parameters<typeof callsOwnSegment>[0];
  const perFile = { campaign: { audience: "file" } } as Parameters<typeof callsOwnSegment>[0];

  it("a file's campaign of a standing-segment job calls the job's segment, shared", () => {
    expect(callsOwnSegment(standing, { attempt: 0 })).toBe(false);
    expect(callsOwnSegment(perFile, { attempt: 0 })).toBe(true);
  });

  // Issue 42 item 4: a follow-up's check took its own segment for the standing one and let a late copy call everyone again.
  it("a follow-up, a hand-back and a repair always call their own, whatever the job's audience", () => {
    expect(callsOwnSegment(standing, { attempt: 1 })).toBe(true);
    expect(callsOwnSegment(standing, { attempt: 0, resumeOf: "cmp_1" })).toBe(true);
    expect(callsOwnSegment(standing, { attempt: 0, repair: 1 })).toBe(true);
  });
});
