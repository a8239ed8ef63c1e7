import { describe, expect, it } from "vitest";
import { followUpJobKind } from "../../src/queue/queues.ts";

const data = { job: "leads", campaignId: "c1" };

describe("the follow-ups queue's jobs, told apart", () => {
  it("by their name", () => {
    expect(followUpJobKind({ name: "follow-up", data })).toBe("follow-up");
    expect(followUpJobKind({ name: "resume", data })).toBe("resume");
    expect(followUpJobKind({ name: "start-check", data })).toBe("start-check");
  });

  it("a job queued by the version before names is read by its flags", () => {
    expect(followUpJobKind({ name: "c1 resume", data: { ...data, resume: true } })).toBe("resume");
    expect(followUpJobKind({ name: "start-check campaign #abc", data: { ...data, check: true } })).toBe(
      "start-check",
    );
    expect(followUpJobKind({ name: "c1", data })).toBe("follow-up");
  });
});
