import { beforeAll, describe, expect, it } from "vitest";
import { redisKeys } from "../../../src/lib/redis-keys.ts";
import { applyRecord, emptyTotals } from "../../../src/pipeline/model/campaign-totals.ts";
import type { ResultRecord } from "../../../src/pipeline/model/results.ts";
import { forgetFingerprintIndexes, pollCampaign } from "../../../src/pipeline/results/poll-campaign.ts";
import { createCampaignStore } from "../../../src/pipeline/stores/campaign-store.ts";
import { createSuppressionList } from "../../../src/pipeline/stores/suppression.ts";
import { campaignInfo } from "../../support/fixtures.ts";
import { sendJson, startHttpServer, type TestServer } from "../../support/http-server.ts";
import { STATUS_CLASSES, usePollCampaigns } from "../../support/poll.ts";
import { testClient } from "../../support/simulator.ts";

const classes = STATUS_CLASSES;

describe("pollCampaign streams the audience (real Redis, simulator, time moved by hand)", () => {
  const { t, redis, prefix, campaignOf, optionsOf } = usePollCampaigns();

  /** Everything Redis holds for the campaign. */
  async function snapshot(p: string, id: string) {
    const out: Record<string, unknown> = {};
    for (const k of (await redis.keys(`${p}:campaign:{${id}}*`)).sort()) {
      const type = await redis.type(k);
      out[k] = type === "hash" ? await redis.hgetall(k) : type === "stream" ? await redis.xlen(k) : type;
    }
    return out;
  }

  /** The stored records, and the totals they make, which the running totals must equal. */
  async function consistent(p: string, id: string) {
    const store = createCampaignStore(redis, redisKeys(p));
    const records: ResultRecord[] = [];
    for await (const r of store.allRecords(id)) records.push(r);
    const fromScratch = emptyTotals();
    for (const r of records) applyRecord(fromScratch, r, 1, classes);
    const { totals } = (await store.get(id))!;
    const { unreadable: _u, unknownSeen: _s, ...running } = totals;
    expect(running).toEqual(fromScratch);
    expect(await redis.hlen(redisKeys(p).campaign.fingerprints(id))).toBe(records.length);
    return records;
  }

  it("more changes than a poll keeps in memory: staged, written in parts, the same result, no stage left", async () => {
    const p = prefix();
    const { id, store } = await campaignOf(60, p);
    t.sim.clock.advance(120_000);
    const o = { ...optionsOf(p, store), maxBufferedChanges: 7 };
    const first = await pollCampaign(id, o);
    expect(first).toMatchObject({ changed: 60, version: 1 });
    expect(await redis.exists(redisKeys(p).campaign.staged(id))).toBe(0);
    const records = await consistent(p, id);
    expect(records).toHaveLength(60);
    expect((await store.transitions(id)).filter((x) => x.from === "")).toHaveLength(60);
    // Unchanged: nothing written, by a process that has the index or one that hasn't.
    const before = await snapshot(p, id);
    expect(await pollCampaign(id, o)).toMatchObject({ changed: 0, version: 1 });
    forgetFingerprintIndexes();
    expect(await pollCampaign(id, o)).toMatchObject({ changed: 0, version: 1 });
    expect(await snapshot(p, id)).toEqual(before);
    // Every call ends: many changes again, found by a process without the index.
    t.sim.clock.advance(3_600_000);
    forgetFingerprintIndexes();
    const last = await pollCampaign(id, o);
    expect(last).toMatchObject({ state: "finished", version: 2 });
    expect(last.changed).toBeGreaterThan(7);
    const ended = await consistent(p, id);
    expect(ended.every((r) => (classes.final as readonly string[]).includes(r.status))).toBe(true);
  });

  it("a tiny maxResponseBytes still polls a large audience: it caps one entry, the body is streamed", async () => {
    const p = prefix();
    const { id, store } = await campaignOf(40, p);
    const client = testClient(t.sim, { maxResponseBytes: 2 * 1024 });
    const outcome = await pollCampaign(id, { ...optionsOf(p, store), client });
    expect(outcome).toMatchObject({ changed: 40, version: 1 });
    expect(await consistent(p, id)).toHaveLength(40);
  });

  describe("a service whose body is cut midway", () => {
    let server: TestServer;
    let cutNext = 0;
    const audience = Array.from({ length: 400 }, (_, i) => ({
      phone: `+1415557${String(1000 + i)}`,
      status: i % 2 ? "completed" : "no-answer",
      call_duration_in_sec: "20",
    }));
    beforeAll(async () => {
      const text = JSON.stringify(audience);
      server = await startHttpServer((_req, res) => {
        if (cutNext > 0) {
          cutNext -= 1;
          res.writeHead(200, { "content-type": "application/json" });
          // 70% of the body, read (and partly staged) before the connection drops.
          res.write(text.slice(0, Math.floor(text.length * 0.7)));
          setTimeout(() => res.destroy(), 100);
        } else sendJson(res, 200, text);
      });
      return () => server.close();
    });

    it("with no retry left the poll fails and Redis is as it was: nothing half written, no stage", async () => {
      const p = prefix();
      const store = createCampaignStore(redis, redisKeys(p));
      await store.register(campaignInfo({ id: "cmp_cut", name: "cut" }), Date.now());
      const before = await snapshot(p, "cmp_cut");
      cutNext = 1;
      const o = {
        ...optionsOf(p, store),
        client: testClient(server, { maxRetries: 0 }),
        maxBufferedChanges: 50,
      };
      await expect(pollCampaign("cmp_cut", o)).rejects.toThrow(/connection/);
      expect(await snapshot(p, "cmp_cut")).toEqual(before);
    });

    it("retried, the read starts again from nothing: each entry counted once", async () => {
      const p = prefix();
      const store = createCampaignStore(redis, redisKeys(p));
      await store.register(campaignInfo({ id: "cmp_cut2", name: "cut2" }), Date.now());
      cutNext = 2;
      const o = {
        ...optionsOf(p, store),
        client: testClient(server, { maxRetries: 2 }),
        maxBufferedChanges: 50,
      };
      const outcome = await pollCampaign("cmp_cut2", o);
      expect(outcome).toMatchObject({ changed: 400, version: 1, state: "finished" });
      expect(outcome.unreadable).toBeUndefined();
      expect((await store.get("cmp_cut2"))!.totals).toMatchObject({
        contacts: 400,
        final: 400,
        byStatus: { completed: 200, "no-answer": 200 },
      });
      expect(await consistent(p, "cmp_cut2")).toHaveLength(400);
      expect(await redis.exists(redisKeys(p).campaign.staged("cmp_cut2"))).toBe(0);
    });
  });

  it("a phone listed twice, its entries far apart across staged parts: the last one wins, counted once", async () => {
    const filler = Array.from({ length: 30 }, (_, i) => ({ phone: `+1415558${1000 + i}`, status: "busy" }));
    const audience = [
      { phone: "+14155589999", status: "opted-out" },
      ...filler,
      { phone: "+14155589999", status: "completed", call_duration_in_sec: 12 },
    ];
    const hostile = await startHttpServer((_req, res) => sendJson(res, 200, audience));
    try {
      const p = prefix();
      const store = createCampaignStore(redis, redisKeys(p));
      await store.register(campaignInfo({ id: "cmp_dup", name: "dup" }), Date.now());
      const o = { ...optionsOf(p, store), client: testClient(hostile), maxBufferedChanges: 5 };
      const outcome = await pollCampaign("cmp_dup", o);
      expect(outcome).toMatchObject({ changed: 31, optedOut: 0 });
      expect(outcome.unreadable).toEqual({ fields: {}, entriesLeftOut: 0, duplicatePhones: 1 });
      expect((await store.records("cmp_dup", ["+14155589999"]))[0]).toMatchObject({
        status: "completed",
        durationSec: 12,
      });
      expect((await store.get("cmp_dup"))!.totals).toMatchObject({
        contacts: 31,
        byStatus: { busy: 30, completed: 1 },
      });
      expect(await createSuppressionList(redis, redisKeys(p)).list()).toEqual([]);
      await consistent(p, "cmp_dup");
    } finally {
      await hostile.close();
    }
  });
});
