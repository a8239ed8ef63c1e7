import { describe, expect, it } from "vitest";
import { createExperimentStore } from "../../../src/pipeline/stores/experiment-store.ts";
import { variantOf } from "../../../src/pipeline/variant-assignment.ts";
import { useRedis } from "../../support/redis.ts";

const AB = [
  { name: "a", share: 1 },
  { name: "b", share: 1 },
];
const phones = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `+1415555${String(from + i).padStart(4, "0")}`);

describe("the experiment store: people keep their first variant; assignments are kept per planned campaign", () => {
  const { redis, keys } = useRedis();

  it("a person given a variant keeps it in a later file even when the variants' list changes", async () => {
    const store = createExperimentStore(redis, keys());
    const first = phones(200);
    const given = first.filter((p) => variantOf("leads", p, AB) === "a");
    await store.assign(
      "leads",
      { key: "k1", variant: "a", assigned: given.length, setAside: 0, at: 1 },
      given,
    );
    // A third variant added: the hash now gives some of them c; the store keeps them in a.
    const abc = [...AB, { name: "c", share: 1 }];
    const state = await store.assignment("leads", first);
    expect(given.every((p) => variantOf("leads", p, abc, state) === "a")).toBe(true);
    expect(given.some((p) => variantOf("leads", p, abc) === "c")).toBe(true);
    // The first variant stands (HSETNX): a second record of the same person does not move it.
    await store.assign("leads", { key: "k2", variant: "b", assigned: 1, setAside: 0, at: 2 }, [given[0]!]);
    expect((await store.assignment("leads", [given[0]!])).earlier?.get(given[0]!)).toBe("a");
    expect((await store.assignments("leads")).map((a) => a.key).sort()).toEqual(["k1", "k2"]);
  });

  it("people called before the store kept them are backfilled once per experiment", async () => {
    const store = createExperimentStore(redis, keys());
    const called: [string, string][] = phones(3, 500).map((p, i) => [p, i === 0 ? "b" : "a"]);
    await store.assign("x", { key: "k", variant: "a", assigned: 1, setAside: 0, at: 1 }, [called[0]![0]]);
    expect(await store.needsBackfill("x")).toBe(true);
    expect(await store.backfill("x", () => called)).toBe(3);
    expect(await store.needsBackfill("x")).toBe(false);
    expect(await store.backfill("x", () => called)).toBe(0);
    const earlier = (
      await store.assignment(
        "x",
        called.map(([p]) => p),
      )
    ).earlier!;
    // The one recorded first keeps its record; the others are filled.
    expect(called.map(([p]) => earlier.get(p))).toEqual(["a", "a", "a"]);
  });
});
