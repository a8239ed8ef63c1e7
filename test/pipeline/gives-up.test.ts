import { UnrecoverableError } from "bullmq";
import { describe, expect, it } from "vitest";
import { IngestFileError } from "../../src/ingest/ingest-file-error.ts";
import { givesUp, PermanentError } from "../../src/pipeline/errors.ts";

describe("givesUp: the one retry-or-give-up decision", () => {
  it("retries a passing failure while attempts remain, gives up on the last", () => {
    expect(givesUp(new Error("ECONNRESET"), false)).toBe(false);
    expect(givesUp(new Error("ECONNRESET"), true)).toBe(true);
    expect(givesUp("a thrown string", false)).toBe(false);
  });

  it("gives up at once on a failure no retry can cure", () => {
    expect(givesUp(new PermanentError("no such assistant"), false)).toBe(true);
    expect(givesUp(new IngestFileError("empty", "a.csv", "the file is empty"), false)).toBe(true);
    expect(givesUp(new UnrecoverableError("BullMQ's own verdict"), false)).toBe(true);
  });
});
