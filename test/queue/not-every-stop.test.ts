import { describe, expect, it } from "vitest";
import { notEveryStop } from "../../src/queue/operator/run-action.ts";

const asked = { ok: true, count: 1, message: "stop of campaign a asked", stopping: ["cmp_a"] };
const waits = (id: string) => ({
  ok: false,
  count: 1,
  message: `stop of ${id} asked, but no running daemon polls`,
  stopping: [id],
});
const ended = { ok: false, count: 0, message: "campaign c has ended (finished): nothing left to stop" };

describe("the last line of a stop by file that did not stop everything", () => {
  it("says the stops wait for a poll when every refusal is a stop of a job no daemon polls", () => {
    expect(notEveryStop([asked, waits("cmp_b")])).toBe(
      "not every stop is carried out yet: 1 campaign waits for a daemon that polls its job (above)",
    );
    expect(notEveryStop([waits("cmp_b"), waits("cmp_c")])).toMatch(
      /^not every stop is carried out yet: 2 campaigns wait for a daemon that polls their job \(above\)$/,
    );
  });

  it("keeps the service's limit when a campaign could not be stopped at all", () => {
    expect(notEveryStop([waits("cmp_b"), ended])).toMatch(
      /^not every campaign could be stopped: the service has no operation/,
    );
    expect(notEveryStop([ended])).toMatch(/^not every campaign could be stopped:/);
  });
});
