import { describe, expect, it } from "vitest";
import { splitByVariant, variantOf } from "../../src/pipeline/variant-assignment.ts";

const AB = [
  { name: "a", share: 1 },
  { name: "b", share: 1 },
];
const phones = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `+1415555${String(from + i).padStart(4, "0")}`);

describe("sticky variant assignment", () => {
  it("is pinned: a new release must not move a contact to another variant", () => {
    expect(
      ["+14155550100", "+14155550101", "+14155550102", "+14155550103", "+447700900123"].map((p) =>
        variantOf("leads", p, AB),
      ),
    ).toEqual(["b", "a", "b", "b", "a"]);
  });

  it("depends on the number and the job only: two files sharing numbers give them the same variants", () => {
    const fileOne = phones(400);
    const fileTwo = [...phones(200, 200)].reverse().concat(phones(300, 5000));
    const one = new Map(
      splitByVariant("leads", fileOne, AB).flatMap((g) => g.phones.map((p) => [p, g.variant])),
    );
    const two = new Map(
      splitByVariant("leads", fileTwo, AB).flatMap((g) => g.phones.map((p) => [p, g.variant])),
    );
    const shared = fileOne.filter((p) => two.has(p));
    expect(shared).toHaveLength(200);
    for (const p of shared) expect(two.get(p)).toBe(one.get(p));
    // Another job draws afresh: about half the numbers land elsewhere.
    const moved = fileOne.filter((p) => variantOf("other-job", p, AB) !== one.get(p)).length;
    expect(moved).toBeGreaterThan(150);
    expect(moved).toBeLessThan(250);
  });

  it("follows the shares as weights", () => {
    const groups = splitByVariant("leads", phones(8000), [
      { name: "big", share: 3 },
      { name: "small", share: 1 },
    ]);
    const big = groups.find((g) => g.variant === "big")!.phones.length;
    // 3/4 of 8000 = 6000; sd = sqrt(8000 * 0.75 * 0.25) ≈ 39.
    expect(Math.abs(big - 6000)).toBeLessThan(160);
    expect(groups.map((g) => g.variant)).toEqual(["big", "small"]);
  });

  it("stopping a variant moves only its contacts; promoting one gives it everybody", () => {
    const three = [...AB, { name: "c", share: 1 }];
    const list = phones(900);
    const before = new Map(list.map((p) => [p, variantOf("leads", p, three)]));
    const stopped = { stopped: new Set(["b"]) };
    for (const p of list) {
      const after = variantOf("leads", p, three, stopped);
      if (before.get(p) !== "b") expect(after).toBe(before.get(p));
      else expect(["a", "c"]).toContain(after);
    }
    const movedToA = list.filter(
      (p) => before.get(p) === "b" && variantOf("leads", p, three, stopped) === "a",
    );
    const wasB = list.filter((p) => before.get(p) === "b").length;
    expect(movedToA.length / wasB).toBeGreaterThan(0.35);
    expect(movedToA.length / wasB).toBeLessThan(0.65);
    const promoted = { stopped: new Set(["a", "b"]), promoted: "c" };
    expect(new Set(list.map((p) => variantOf("leads", p, three, promoted)))).toEqual(new Set(["c"]));
  });
});
