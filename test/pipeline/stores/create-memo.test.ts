import { describe, expect, it } from "vitest";
import { createCreateMemo } from "../../../src/pipeline/stores/create-memo.ts";
import { useRedis } from "../../support/redis.ts";

/** A dropped file's own segment is named after the file, which may name a person. */
const NAME = "leads call +1 415 555 0199 Alice.csv #d702b41b";
const DAY = 86_400_000;

/** Issue 42 item 7: the create memo's keys follow the retention and carry no names. */
describe("the create memo", () => {
  const { redis, keys } = useRedis();

  it("keys a segment by a digest of its name, never the name", () => {
    const k = keys();
    for (const key of [k.segmentMemo(NAME), k.sentOf(k.segmentMemo(NAME)), k.lockOf(k.segmentMemo(NAME))]) {
      expect(key).not.toContain("Alice");
      expect(key).not.toContain("555");
    }
    expect(k.segmentMemo(NAME)).toBe(k.segmentMemo(NAME));
    expect(k.segmentMemo(NAME)).not.toBe(k.segmentMemo(`${NAME}x`));
  });

  it("counts the creates sent while a mark stands (a re-send may leave a late copy); an answer keeps the count", async () => {
    const memo = createCreateMemo(redis, keys());
    const slot = memo.campaign("j:sha:0:0");
    const send = () =>
      slot.locked({ ttlMs: 5_000 }, (_lost, token) => slot.fence(token, 5_000, "2026-11-29T08:00:00Z"));
    await send();
    expect((await slot.sent())?.sends).toBe(1);
    await send();
    expect(await slot.sent()).toMatchObject({ sends: 2, note: "2026-11-29T08:00:00Z" });
    await slot.markAnswered(5);
    expect(await slot.sent()).toMatchObject({ at: 5, answered: true, sends: 2 });
    // A create that failed for sure clears the mark: the next is the first that may land.
    await slot.clearSent();
    await send();
    expect((await slot.sent())?.sends).toBe(1);
  });

  it("an id and a sent mark live as long as the retention, then go", async () => {
    const k = keys();
    const memo = createCreateMemo(redis, k, { retentionMs: 2 * DAY });
    const slot = memo.segment(NAME);
    await slot.locked({ ttlMs: 5_000 }, async (_lost, token) => {
      expect(await slot.fence(token, 5_000)).toBeGreaterThan(0);
    });
    await slot.remember("seg-1");
    const c = memo.campaign("j:sha:0:0");
    await c.remember("cmp-1");
    await c.markAnswered(1);
    for (const key of [
      k.segmentMemo(NAME),
      k.sentOf(k.segmentMemo(NAME)),
      k.campaignMemo("j:sha:0:0"),
      k.sentOf(k.campaignMemo("j:sha:0:0")),
    ]) {
      const ttl = await redis.pttl(key);
      expect(ttl, key).toBeGreaterThan(2 * DAY - 60_000);
      expect(ttl, key).toBeLessThanOrEqual(2 * DAY);
    }
  });

  it("reads what the version before wrote under the name itself (a rolling deploy), and forgets it", async () => {
    const k = keys();
    const slot = createCreateMemo(redis, k).segment(NAME);
    await redis.set(k.sentOf(k.legacySegmentMemo(NAME)), JSON.stringify({ at: 5 }));
    expect(await slot.state()).toEqual({ kind: "may-exist" });
    expect(await slot.sent()).toEqual({ at: 5 });
    await redis.set(k.legacySegmentMemo(NAME), "seg-old");
    expect(await slot.id()).toBe("seg-old");
    expect(await slot.state()).toEqual({ kind: "exists", id: "seg-old" });
    // The idempotency key still comes from the name as it was keyed: a create re-sent across versions is one.
    expect(slot.identity).toBe(k.legacySegmentMemo(NAME));
    await slot.forget("seg-old");
    await slot.clearSent();
    expect(await slot.state()).toEqual({ kind: "none" });
  });
});
