import { describe, expect, it } from "vitest";
import { redisKeys } from "../../../src/lib/redis-keys.ts";
import { fingerprintCacheSize, pollCampaign } from "../../../src/pipeline/results/poll-campaign.ts";
import { createCampaignStore } from "../../../src/pipeline/stores/campaign-store.ts";
import { createSuppressionList } from "../../../src/pipeline/stores/suppression.ts";
import { campaignInfo } from "../../support/fixtures.ts";
import { sendJson, startHttpServer } from "../../support/http-server.ts";
import { STATUS_CLASSES, usePollCampaigns } from "../../support/poll.ts";
import { testClient } from "../../support/simulator.ts";

const classes = STATUS_CLASSES;

describe("pollCampaign (real Redis, simulator with frozen time moved by hand)", () => {
  const { t, redis, prefix, campaignOf, optionsOf } = usePollCampaigns();

  /** Everything Redis holds for the campaign, to compare before and after a poll. */
  async function snapshot(p: string, id: string) {
    const keys = (await redis.keys(`${p}:campaign:{${id}}*`)).sort();
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      const type = await redis.type(k);
      out[k] =
        type === "hash"
          ? await redis.hgetall(k)
          : type === "stream"
            ? await redis.xlen(k)
            : await redis.get(k);
    }
    return out;
  }

  it("stores what changed; an unchanged audience writes nothing; a finished campaign stops", async () => {
    const p = prefix();
    const { id, store } = await campaignOf(5, p);
    const suppression = createSuppressionList(redis, redisKeys(p));
    const poll = (stuckAfterMs = 3_600_000) =>
      pollCampaign(id, {
        client: t.client,
        store,
        suppression,
        classes,
        stuckAfterMs,
      });

    const first = await poll();
    expect(first).toMatchObject({ changed: 5, version: 1, state: "active" });
    const before = await snapshot(p, id);
    expect(await poll()).toMatchObject({ changed: 0, version: 1 });
    expect(await snapshot(p, id)).toEqual(before);

    t.sim.clock.advance(3_600_000); // every call has ended
    const last = await poll();
    expect(last).toMatchObject({ state: "finished", ended: true, version: 2 });
    const stored = (await store.get(id))!;
    expect(stored.totals).toMatchObject({ contacts: 5, final: 5 });
    expect(await store.activeOf("j")).toEqual([]);
    const transitions = await store.transitions(id);
    expect(transitions.filter((x) => x.from === "")).toHaveLength(5);
    // Opt-outs went on the suppression list.
    const optedOut = Object.entries(stored.totals.byStatus).find(([s]) => s === "opted-out")?.[1] ?? 0;
    expect((await suppression.list()).length).toBe(optedOut);
    expect(await poll()).toMatchObject({ skipped: "not-active" });
  });

  it("a poll tells its pace; the index cache counts its bytes as indexes come and go; an end leaves the due set", async () => {
    const p = prefix();
    const { id, store } = await campaignOf(5, p);
    const suppression = createSuppressionList(redis, redisKeys(p));
    const o = {
      client: t.client,
      redis,
      store,
      suppression,
      classes,
      keys: redisKeys(p),
      stuckAfterMs: 3_600_000,
    };
    expect(await store.nextPollOf("j", id)).toBeDefined();
    const before = fingerprintCacheSize();
    const first = await pollCampaign(id, { ...o, inFlight: ["ringing", "in-progress"] });
    const stored = (await store.get(id))!;
    expect(first.pace).toEqual({
      inFlight: ["ringing", "in-progress"].some((s) => (stored.totals.byStatus[s] ?? 0) > 0),
      lastChangeAt: stored.lastChangeAt,
      scheduledAtMs: Date.parse(stored.info.scheduledAt),
    });
    // A small campaign's index is small (16 slots of 16 bytes), and counted once however often polled.
    expect(fingerprintCacheSize()).toEqual({ indexes: before.indexes + 1, bytes: before.bytes + 256 });
    await pollCampaign(id, o);
    expect(fingerprintCacheSize()).toEqual({ indexes: before.indexes + 1, bytes: before.bytes + 256 });
    t.sim.clock.advance(3_600_000);
    const last = await pollCampaign(id, o);
    expect(last).toMatchObject({ state: "finished", ended: true });
    expect(last.pace).toBeUndefined();
    expect(fingerprintCacheSize()).toEqual(before);
    expect(await store.nextPollOf("j", id)).toBeUndefined();
  });

  it("non-final entries unchanged past stuckAfter after the start: stuck, and polling stops", async () => {
    const p = prefix();
    const { id, store } = await campaignOf(2, p);
    const suppression = createSuppressionList(redis, redisKeys(p));
    const o = { client: t.client, redis, store, suppression, classes, keys: redisKeys(p) };
    await pollCampaign(id, { ...o, stuckAfterMs: 3_600_000 });
    await new Promise((r) => setTimeout(r, 30));
    const stuck = await pollCampaign(id, { ...o, stuckAfterMs: 10 });
    expect(stuck).toMatchObject({ state: "stuck", ended: true });
    expect((await store.get(id))!.info.state).toBe("stuck");
    expect(await store.activeOf("j")).toEqual([]);
  });

  it("one malformed audience entry doesn't block the campaign: it is kept, its odd fields counted, the poll ends", async () => {
    const entry = (i: number, over: object = {}) => ({
      phone: `+1415555${2000 + i}`,
      first_name: `P${i}`,
      status: "completed",
      call_duration_in_sec: 30,
      ...over,
    });
    const audience = [
      entry(0, { call_sentiment: {} }),
      entry(1, { is_call_transferred: "yes" }),
      entry(2),
      entry(2, { status: "no-answer" }), // the same phone twice: counted once
      "not an entry",
    ];
    const hostile = await startHttpServer((_req, res) => sendJson(res, 200, audience));
    try {
      const p = prefix();
      const store = createCampaignStore(redis, redisKeys(p));
      await store.register(campaignInfo({ id: "cmp_odd", name: "odd" }), Date.now());
      const outcome = await pollCampaign("cmp_odd", optionsOf(p, store, testClient({ url: hostile.url })));
      expect(outcome).toMatchObject({ changed: 3, state: "finished", ended: true });
      const stored = (await store.get("cmp_odd"))!;
      expect(stored.totals).toMatchObject({
        contacts: 3,
        final: 3,
        byStatus: { completed: 2, "no-answer": 1 },
      });
      expect(stored.totals.unreadable).toEqual({
        fields: { call_sentiment: 1, is_call_transferred: 1 },
        entriesLeftOut: 1,
        duplicatePhones: 1,
      });
      const kept = await store.records("cmp_odd", ["+14155552000"]);
      expect(kept[0]).toMatchObject({
        first_name: "P0",
        status: "completed",
        durationSec: 30,
        sentiment: "",
      });
    } finally {
      await hostile.close();
    }
  });
});
