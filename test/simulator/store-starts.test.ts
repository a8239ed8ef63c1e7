import { describe, expect, it } from "vitest";
import { type AudienceMember, Store, type StoredCampaign } from "../../src/simulator/store.ts";

// The store keeps its campaigns not yet started apart, so that a request checks the earliest start
// instead of every campaign: these hold that nothing is started early, late, twice or after removal.
const campaign = (store: Store, startAt: number): StoredCampaign =>
  store.add<StoredCampaign>("campaigns", {
    id: store.newId("campaigns"),
    ordinal: store.list("campaigns").length + 1,
    assistantId: "ast_x",
    segmentId: "seg_x",
    dialerId: "dlr_x",
    startAt,
    fields: {},
  });

const recorder = () => {
  const started: string[] = [];
  const audienceOf = (c: StoredCampaign): AudienceMember[] => {
    started.push(c.id);
    return [];
  };
  return { started, audienceOf };
};

describe("simulator store: campaigns due to start", () => {
  it("starts each campaign once, at its time, in creation order", () => {
    const store = new Store();
    const late = campaign(store, 300);
    const early = campaign(store, 100);
    const alsoEarly = campaign(store, 100);
    const { started, audienceOf } = recorder();

    store.startDue(99, audienceOf);
    expect(started).toEqual([]);
    store.startDue(100, audienceOf);
    expect(started).toEqual([early.id, alsoEarly.id]);
    store.startDue(299, audienceOf);
    expect(started).toHaveLength(2);

    // One created later that starts before the rest is not skipped by the earliest start kept.
    const sooner = campaign(store, 150);
    store.startDue(150, audienceOf);
    expect(started).toEqual([early.id, alsoEarly.id, sooner.id]);
    store.startDue(1_000, audienceOf);
    store.startDue(2_000, audienceOf);
    expect(started).toEqual([early.id, alsoEarly.id, sooner.id, late.id]);
    expect(late.audience).toEqual([]);
  });

  it("never starts a removed campaign, and starts one started elsewhere only once", () => {
    const store = new Store();
    const removed = campaign(store, 100);
    const startedByHand = campaign(store, 100);
    const kept = campaign(store, 200);
    store.remove("campaigns", removed.id);
    store.start(startedByHand, []);
    const { started, audienceOf } = recorder();

    store.startDue(500, audienceOf);
    expect(started).toEqual([kept.id]);
  });

  it("a store loaded from data finds the campaigns it holds not started, and a replayed start", () => {
    const first = new Store();
    const a = campaign(first, 100);
    const b = campaign(first, 200);
    first.start(a, []);
    const { started, audienceOf } = recorder();

    const loaded = new Store(structuredClone(first.data));
    loaded.startDue(150, audienceOf);
    expect(started).toEqual([]);
    loaded.startDue(200, audienceOf);
    expect(started).toEqual([b.id]);

    // A start read back from the journal takes the campaign out of the ones waiting.
    const replayed = new Store(structuredClone(first.data));
    expect(replayed.replay({ seq: replayed.seq + 1, op: "start", id: b.id }, () => [])).toBe(true);
    replayed.startDue(1_000, audienceOf);
    expect(started).toEqual([b.id]);
  });
});
