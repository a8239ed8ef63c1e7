import { describe, expect, it } from "vitest";
import { audienceArrayReader } from "../../../src/api/audience-entries.ts";
import { readJsonArray } from "../../../src/api/json-array-stream.ts";
import { type AudienceDiff, AudienceDiffSink } from "../../../src/pipeline/results/audience-diff.ts";
import { entryFingerprint, parseFingerprint } from "../../../src/pipeline/results/entry-fingerprint.ts";
import { FingerprintIndex } from "../../../src/pipeline/results/fingerprint-index.ts";
import { rawHash } from "../../../src/pipeline/results/raw-entry-memo.ts";

/*
 * Found by a review of decision 0082: the raw hash's FNV-style lanes let two flips of a word's top
 * bit cancel (a Latin-1 name change missed, a non-JSON element taken as known); the memo grew with
 * elements that are no entries; an entry never streamed was remembered at position -1. And, older,
 * the entry fingerprint's lanes had the same weakness with valid text.
 */
const enc = new TextEncoder();
function streamOf(bytes: Uint8Array, size = 8192) {
  return new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.length; i += size) c.enqueue(bytes.slice(i, i + size));
      c.close();
    },
  });
}
async function read(index: FingerprintIndex, bytes: Uint8Array, stored: Map<string, string>, warm = true) {
  const sink = new AudienceDiffSink({
    index,
    warm,
    storedFingerprints: async (phones) => phones.map((p) => stored.get(p) ?? null),
    spill: async () => {},
    dropSpilled: async () => {},
    maxBuffered: 1_000_000,
  });
  const reader = audienceArrayReader(sink);
  await reader.start();
  await readJsonArray(streamOf(bytes), {
    onItem: (r) => reader.item(r),
    onRaw: (b) => reader.raw!(b),
    afterChunk: () => reader.afterChunk?.(),
    maxItemBytes: 1_000_000,
  });
  const diff = (await reader.finish()) as AudienceDiff;
  const fp = new Uint32Array(2);
  for (const c of diff.buffered) {
    parseFingerprint(c.fingerprint, fp);
    index.setStored(index.slot(index.keyOf(c.phone), 0), fp[0]!, fp[1]!);
    stored.set(c.phone, c.fingerprint);
  }
  return diff;
}
const FILLER = Array.from({ length: 400 }, (_, i) =>
  JSON.stringify({ phone: `+1415556${1000 + i}`, status: "queued", calltranscribe: "t".repeat(200) }),
);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};

describe("the raw hash: bytes that differ only in the top bits of two words hash apart", () => {
  it("two different entries, one hash", () => {
    const a = enc.encode('{"phone":"+14155550100","first_name":"Lucia Diaz","status":"queued"}');
    const b = a.slice();
    // Any two offsets 3 mod 4 (here inside first_name): 'i' (0x69) <-> 0xE9 ('í' in Latin-1).
    const name = a.indexOf(0x4c /* L */);
    const p = [name, name + 1, name + 2, name + 3].find((x) => x % 4 === 3)!;
    b[p]! ^= 0x80;
    b[p + 4]! ^= 0x80;
    const [ha, hb] = [new Uint32Array(2), new Uint32Array(2)];
    rawHash(a, ha);
    rawHash(b, hb);
    expect(new TextDecoder().decode(a)).not.toBe(new TextDecoder().decode(b));
    expect([...hb]).not.toEqual([...ha]);
  });

  it("a poll that remembers bytes misses the change a cold process finds", async () => {
    // Element 0's bytes: the name's 'i's at offsets 3 mod 4 of the element.
    const head = '{"phone":"+14155550100","status":"queued","first_name":"';
    const pad = "x".repeat((4 - (head.length % 4)) % 4);
    const before = enc.encode(`${head}${pad}Luc${"i"}a D${"i"}az"}`);
    const i1 = head.length + pad.length + 3;
    expect(i1 % 4).toBe(3);
    const after = before.slice();
    after[i1]! ^= 0x80;
    after[i1 + 4]! ^= 0x80; // Latin-1 "Lucía Díaz"
    const body = (first: Uint8Array) => concat(enc.encode("["), first, enc.encode(`,${FILLER.join(",")}]`));
    const index = new FingerprintIndex(401);
    const stored = new Map<string, string>();
    await read(index, body(before), stored);
    const storedThen = new Map(stored);
    const warm = await read(index, body(after), stored);
    const cold = await read(new FingerprintIndex(401), body(after), storedThen, false);
    expect(cold.buffered.map((c) => c.record.first_name)).toEqual(["Luc\uFFFDa D\uFFFDaz"]);
    expect(warm.digest).toBe(cold.digest);
    expect(warm.buffered.length).toBe(1);
  });

  it("an element that is not JSON is taken as known (it would be NotAJsonArray for a cold process)", async () => {
    // ',' (0x2C) <-> 0xAC between two members, and a letter: bytes the splitter cuts alike, JSON.parse refuses.
    const head = '{"phone":"+14155550100","status":"queued","a":1';
    const pad = " ".repeat((4 - ((head.length + 1) % 4)) % 4); // the comma at offset 3 mod 4
    const before = enc.encode(`${head}${pad},"b":"xyzw"}`);
    const c = head.length + pad.length;
    expect(c % 4).toBe(3);
    const after = before.slice();
    after[c]! ^= 0x80;
    after[c + 4]! ^= 0x80;
    const body = (first: Uint8Array) => concat(enc.encode("["), first, enc.encode(`,${FILLER.join(",")}]`));
    const index = new FingerprintIndex(401);
    const stored = new Map<string, string>();
    await read(index, body(before), stored);
    const cold = await read(new FingerprintIndex(401), body(after), new Map(stored), false).then(
      () => "read",
      (e: Error) => e.name,
    );
    expect(cold).toBe("NotAJsonArray");
    const warm = await read(index, body(after), stored).then(
      () => "read",
      (e: Error) => e.name,
    );
    expect(warm).toBe("NotAJsonArray");
  });
});

describe("the memo is bounded by the entries, not the elements", () => {
  it("5,000,000 elements `0` (10 MB) then one entry: memo bytes", async () => {
    const zeros = enc.encode("0,".repeat(5_000_000));
    const body = concat(enc.encode("["), zeros, enc.encode(`${FILLER[0]}]`));
    const index = new FingerprintIndex(1);
    await read(index, body, new Map());
    expect(index.positions?.bytes ?? 0).toBeLessThan(body.length);
  }, 60_000);
});

describe("an entry read whole (not streamed) is not remembered", () => {
  it("no memo is made for an entry given whole (its bytes were never hashed)", async () => {
    const index = new FingerprintIndex(10);
    const sink = new AudienceDiffSink({
      index,
      warm: true,
      storedFingerprints: async (p) => p.map(() => null),
      spill: async () => {},
      dropSpilled: async () => {},
    });
    await sink.start();
    sink.entry({ phone: "+14155550100", status: "queued" } as never, true);
    expect(index.positions).toBeUndefined();
    expect(index.bytes).toBe(new FingerprintIndex(10).bytes);
  });
});

describe("the entry fingerprint", () => {
  it("two names of valid text that differ in the top bit of two UTF-16 units: two fingerprints", () => {
    const [a, b] = [new Uint32Array(2), new Uint32Array(2)];
    const e = (first_name: string) => ({ phone: "+14155550100", status: "queued", first_name }) as never;
    entryFingerprint(e("x\u4e00x\u4e00"), a);
    entryFingerprint(e("x\uce00x\uce00"), b);
    expect([...a]).not.toEqual([...b]);
  });
});
