import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redisKeys } from "../../../src/lib/redis-keys.ts";
import { AudienceDiffSink } from "../../../src/pipeline/results/audience-diff.ts";
import { parseFingerprint } from "../../../src/pipeline/results/entry-fingerprint.ts";
import { FingerprintIndex } from "../../../src/pipeline/results/fingerprint-index.ts";
import { forgetFingerprintIndexes, pollCampaign } from "../../../src/pipeline/results/poll-campaign.ts";
import { createCampaignStore } from "../../../src/pipeline/stores/campaign-store.ts";
import { campaignInfo } from "../../support/fixtures.ts";
import { sendJson, startHttpServer } from "../../support/http-server.ts";
import { usePollCampaigns } from "../../support/poll.ts";
import { testClient } from "../../support/simulator.ts";

/*
 * Issue 48: an unchanged poll of a large audience decides so from the entries' bytes, not by
 * parsing them (raw-entry-memo.ts): the same bytes at the same position are the same entry. What
 * a poll finds must not depend on it: a process that remembers the bytes and one that doesn't
 * find the same changes, store the same records and count the same oddities.
 */

const TRANSCRIPT =
  "Hello, this is a call about your appointment; a transcript long enough to stream. ".repeat(2);

/** An audience of `n` entries, over 64 KB (so it is streamed), each a plain entry. */
const audienceOf = (n: number): Record<string, unknown>[] =>
  Array.from({ length: n }, (_, i) => ({
    _id: `aud_${i}`,
    phone: `+1415556${String(1000 + i)}`,
    first_name: `P${i}`,
    status: "queued",
    calltranscribe: TRANSCRIPT,
  }));

/** Positions near the front: changes meet the same entries often. */
const near = fc.nat({ max: 7 });

/** One change to an audience, as a service's next listing could make it. */
const change = fc.oneof(
  fc.record({
    kind: fc.constant("status" as const),
    at: near,
    to: fc.constantFrom("completed", "busy", "opted-out"),
  }),
  fc.record({ kind: fc.constant("insert-front" as const), n: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant("drop" as const), at: near }),
  fc.record({ kind: fc.constant("duplicate" as const), at: near }),
  fc.record({ kind: fc.constant("national" as const), at: near }),
  fc.record({ kind: fc.constant("odd-field" as const), at: near }),
  fc.record({ kind: fc.constant("no-phone" as const), at: near }),
  fc.record({ kind: fc.constant("restore" as const), at: near }),
  fc.record({ kind: fc.constant("none" as const) }),
);
type Change = typeof change extends fc.Arbitrary<infer T> ? T : never;

const FIRST = audienceOf(400);
let fresh = 0;
function apply(audience: Record<string, unknown>[], c: Change): void {
  const at = "at" in c ? c.at % audience.length : 0;
  const e = audience[at]!;
  if (c.kind === "status") audience[at] = { ...e, status: c.to, call_duration_in_sec: 30 };
  else if (c.kind === "insert-front")
    for (let i = 0; i < c.n; i++)
      audience.unshift({ phone: `+1415557${String(1000 + (fresh++ % 9000))}`, status: "queued" });
  else if (c.kind === "drop" && audience.length > 2) audience.splice(at, 1);
  else if (c.kind === "duplicate") audience.push({ ...e, status: "no-answer" });
  else if (c.kind === "national" && typeof e.phone === "string")
    audience[at] = { ...e, phone: e.phone.slice(2) };
  else if (c.kind === "odd-field")
    audience[at] = { ...e, status: "completed", call_duration_in_sec: { nested: true } };
  else if (c.kind === "no-phone") audience[at] = { ...e, phone: "" };
  // Its bytes as first listed: known at this position, though its record changed since.
  else if (c.kind === "restore") audience[at] = FIRST.find((f) => f._id === e._id) ?? e;
}

describe("a poll that knows entries by their bytes finds what a poll that parses them all finds", () => {
  const { redis, prefix, optionsOf } = usePollCampaigns();

  it("over any run of listings: the same outcome, records and totals as a process with no index", async () => {
    let audience = audienceOf(400);
    const server = await startHttpServer((_req, res) => sendJson(res, 200, audience));
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(change, { maxLength: 4 }), { minLength: 2, maxLength: 5 }),
          async (steps) => {
            audience = audienceOf(400);
            const p = prefix();
            const store = createCampaignStore(redis, redisKeys(p));
            const warm = `cmp_warm_${p}`;
            const cold = `cmp_cold_${p}`;
            // One clock for both, moved on a minute a listing: times in outcomes and totals agree.
            let at = Date.parse("2026-11-30T12:00:00Z");
            const scheduledAt = new Date(at).toISOString();
            for (const id of [warm, cold])
              await store.register(campaignInfo({ id, name: id, scheduledAt }), at);
            const o = { ...optionsOf(p, store), client: testClient(server), now: () => at };
            for (const changes of [[], ...steps]) {
              at += 60_000;
              for (const c of changes) apply(audience, c);
              const a = await pollCampaign(warm, o);
              forgetFingerprintIndexes(cold);
              const b = await pollCampaign(cold, o);
              expect(a).toEqual(b);
              const [ga, gb] = [await store.get(warm), await store.get(cold)];
              expect(ga!.totals).toEqual(gb!.totals);
              const phones = [...new Set(audience.map((x) => String(x.phone ?? "")))];
              expect(await store.records(warm, phones)).toEqual(await store.records(cold, phones));
            }
          },
        ),
        {
          numRuns: 25,
          // The first poll grows the index, so the memo starts at the second. Then an entry's record
          // changed by a listing whose entry was not plain (not remembered), then its first bytes
          // again: known at its position, but the stored record is another.
          examples: [[[[{ kind: "none" }], [{ kind: "odd-field", at: 2 }], [{ kind: "restore", at: 2 }]]]],
        },
      );
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe("an index of another version of the campaign (another replica polled last)", () => {
  const { redis, prefix, optionsOf } = usePollCampaigns();

  it("is emptied and filled again from Redis, not trusted: what another replica stored is diffed against", async () => {
    const audience = audienceOf(300);
    const first = audience[0]!;
    const server = await startHttpServer((_req, res) => sendJson(res, 200, audience));
    try {
      const p = prefix();
      const keys = redisKeys(p);
      const store = createCampaignStore(redis, keys);
      await store.register(campaignInfo({ id: "cmp_replica", name: "replica" }), Date.now());
      const o = { ...optionsOf(p, store), client: testClient(server) };
      expect(await pollCampaign("cmp_replica", o)).toMatchObject({ changed: 300, version: 1 });
      expect(await pollCampaign("cmp_replica", o)).toMatchObject({ changed: 0, version: 1 });
      // Another replica polled while the first entry was completed, and stored it (records,
      // fingerprints, totals, digest: here its own campaign's, copied over, a version on).
      audience[0] = { ...first, status: "completed" };
      await store.register(campaignInfo({ id: "cmp_other", name: "other" }), Date.now());
      expect((await pollCampaign("cmp_other", o)).changed).toBe(300);
      for (const k of ["results", "fingerprints"] as const)
        await redis.copy(keys.campaign[k]("cmp_other"), keys.campaign[k]("cmp_replica"), "REPLACE");
      const { totals, digest } = await redis.hgetall(keys.campaign.meta("cmp_other"));
      await redis.hset(keys.campaign.meta("cmp_replica"), { totals: totals!, digest: digest!, version: "2" });
      // The service lists the first entry as it was: this process's index (version 1) and its memo
      // know those bytes, and would call it unchanged; what is stored says completed.
      audience[0] = first;
      expect(await pollCampaign("cmp_replica", o)).toMatchObject({ changed: 1, version: 3 });
      expect((await store.records("cmp_replica", [String(first.phone)]))[0]).toMatchObject({
        status: "queued",
      });
    } finally {
      await server.close();
    }
  });
});

describe("the diff knows an entry by its bytes at its position", () => {
  /** Reads the audience served now into a sink over `index` (kept between reads, as the poll's cache does). */
  async function read(server: Awaited<ReturnType<typeof startHttpServer>>, index: FingerprintIndex) {
    const stored = new Map<string, string>();
    const sink = new AudienceDiffSink({
      index,
      warm: true,
      storedFingerprints: async (phones) => phones.map((p) => stored.get(p) ?? null),
      spill: async () => {},
      dropSpilled: async () => {},
      maxBuffered: 1_000_000,
    });
    const diff = await testClient(server).campaigns.audiencesStream("cmp", sink);
    // What a commit does: the changes' fingerprints become the stored ones.
    for (const c of diff.buffered) {
      const fp = new Uint32Array(2);
      parseFingerprint(c.fingerprint, fp);
      index.setStored(index.slot(index.keyOf(c.phone), 0), fp[0]!, fp[1]!);
    }
    return diff;
  }

  it("unchanged: every entry known by its bytes; one changed: all but that one; shifted by one: none", async () => {
    const audience: Record<string, unknown>[] = audienceOf(500);
    const server = await startHttpServer((_req, res) => sendJson(res, 200, audience));
    try {
      const index = new FingerprintIndex(500);
      const first = await read(server, index);
      expect([first.knownByBytes, first.buffered.length]).toEqual([0, 500]);
      const again = await read(server, index);
      expect([again.knownByBytes, again.buffered.length, again.digest]).toEqual([500, 0, first.digest]);
      audience[7] = { ...audience[7], status: "completed" };
      const one = await read(server, index);
      expect([one.knownByBytes, one.buffered.map((c) => c.phone)]).toEqual([499, [audience[7]!.phone]]);
      audience.unshift({ phone: "+14155570000", status: "queued" });
      const shifted = await read(server, index);
      expect([shifted.knownByBytes, shifted.buffered.length]).toEqual([0, 1]);
      // A body small enough to be read whole is parsed whole: nothing known by its bytes.
      audience.splice(3);
      expect((await read(server, index)).knownByBytes).toBe(0);
    } finally {
      await server.close();
    }
  });
});
