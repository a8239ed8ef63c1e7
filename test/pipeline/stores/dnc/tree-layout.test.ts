import { describe, expect, it } from "vitest";
import { createDoNotCallLists } from "../../../../src/pipeline/stores/dnc/do-not-call-lists.ts";
import type { ExtractLine } from "../../../../src/pipeline/stores/dnc/extract-reader.ts";
import { loadDoNotCallList } from "../../../../src/pipeline/stores/dnc/load-list.ts";
import { decodeSpan, encodeSpan, spanHas } from "../../../../src/pipeline/stores/dnc/span-codec.ts";
import {
  nodeIndex,
  nodeOf,
  pathOfNode,
  treePlaceOf,
} from "../../../../src/pipeline/stores/dnc/tree-place.ts";
import { createRandom } from "../../../../src/simulator/prng.ts";
import { useRedis } from "../../../support/redis.ts";

/**
 * Issue 31 item 10: a company's own do-not-call list is sparse. Stored as trees (a whole area code
 * in one key while it is sparse, split down to blocks of 10^4 where it is dense), a list costs a
 * few bytes a number whatever its distribution (was ~80 for scattered numbers: a key each), and
 * lists imported in the block layout before still answer.
 */
const { redis, keys: freshKeys } = useRedis();

/** `n` distinct US numbers drawn uniformly over area codes and exchanges 200-999, in no order. */
function scattered(n: number, seed: number, areas?: readonly number[]): string[] {
  const next = createRandom(seed);
  const out = new Set<string>();
  while (out.size < n) {
    const area = areas ? areas[Math.floor(next() * areas.length)]! : 200 + Math.floor(next() * 800);
    const exchange = 200 + Math.floor(next() * 800);
    out.add(`+1${area}${exchange}${String(Math.floor(next() * 10_000)).padStart(4, "0")}`);
  }
  return [...out];
}

async function* linesOf(phones: readonly string[]): AsyncGenerator<ExtractLine> {
  for (const [i, phone] of phones.entries()) yield { line: i + 1, phone };
}

async function bytesOf(prefix: string): Promise<number> {
  let bytes = 0;
  for await (const batch of redis.scanStream({ match: `${prefix}:dnc:*`, count: 1_000 }) as AsyncIterable<
    string[]
  >)
    for (const key of batch) bytes += (await redis.memory("USAGE", key)) ?? 0;
  return bytes;
}

describe("do-not-call lists laid out as trees", () => {
  it("a scattered list costs a few bytes a number, not a key each, and holds exactly its numbers", async () => {
    const keys = freshKeys();
    const listed = scattered(30_000, 3);
    const loaded = await loadDoNotCallList(redis, keys, linesOf(listed), {
      source: "own",
      file: "own.csv",
      expiresInMs: undefined,
    });
    expect(loaded.list).toMatchObject({ numbers: listed.length, layout: "tree" });
    expect(loaded.list.blocks).toBeLessThan(listed.length / 20);
    expect((await bytesOf(keys.prefix)) / listed.length).toBeLessThan(12);
    const strangers = scattered(3_000, 99).filter((p) => !listed.includes(p));
    const found = await createDoNotCallLists(redis, keys).which([...listed, ...strangers]);
    expect(found.size).toBe(listed.length);
    for (const p of strangers) expect(found.has(p)).toBe(false);
  });

  it("merges and splits leaves in any order with little memory: crowded area codes, sparse ones, all exact", async () => {
    const keys = freshKeys();
    // A few area codes crowded past a leaf's 1,024 numbers, and scattered ones, shuffled.
    const crowded = scattered(9_000, 5, [212, 305, 907]);
    const all = [...crowded, ...scattered(2_000, 6)];
    const next = createRandom(8);
    for (let i = all.length - 1; i > 0; i -= 1) {
      const j = Math.floor(next() * (i + 1));
      [all[i], all[j]] = [all[j]!, all[i]!];
    }
    const loaded = await loadDoNotCallList(redis, keys, linesOf(all), {
      source: "own",
      file: "own.csv",
      expiresInMs: undefined,
      maxBlocks: 2, // 312 numbers a flush: ~35 flushes, each merged into the leaves before
    });
    expect(loaded.list.numbers).toBe(all.length);
    const lists = createDoNotCallLists(redis, keys);
    const found = await lists.which(all);
    expect(found.size).toBe(all.length);
    const near = all.slice(0, 2_000).map((p) => `${p.slice(0, -1)}${(Number(p.at(-1)) + 1) % 10}`);
    const absent = near.filter((p) => !all.includes(p));
    expect((await lists.which(absent)).size).toBe(0);
    // Asked again (the lookup now knows the shapes): the same answers.
    expect((await lists.which(all)).size).toBe(all.length);
    expect((await lists.which(absent)).size).toBe(0);
    // Each leaf listed in the version's index, and no key unlisted.
    const indexed = new Set(await redis.smembers(keys.dncBlocks(loaded.list.version)));
    expect(indexed.size - 1).toBe(loaded.list.blocks);
  });

  it("a list imported in the block layout before (no layout field) still answers", async () => {
    const keys = freshKeys();
    // What the block layout wrote: +1 212 555 0100 and 0102 in block 1212:555 (2-byte suffixes).
    await redis.sadd(keys.dncBlocks("0ld0ld00"), "-", "1212:555");
    await redis.set(keys.dncBlock("0ld0ld00", "1212", "555"), Buffer.from([0, 100, 0, 102]));
    await redis.hset(
      keys.dncLists,
      "ftc",
      JSON.stringify({
        source: "ftc",
        version: "0ld0ld00",
        numbers: 2,
        blocks: 1,
        importedAt: 1,
        file: "f",
        invalid: 0,
      }),
    );
    const found = await createDoNotCallLists(redis, keys).which([
      "+12125550100",
      "+12125550101",
      "+12125550102",
    ]);
    expect([...found.keys()].sort()).toEqual(["+12125550100", "+12125550102"]);
  });
});

describe("tree places and sparse leaves (pure)", () => {
  it("a number's place: its 10^7 range and last seven digits; node positions and paths round-trip", () => {
    expect(treePlaceOf("+12125550100")).toEqual({ tag: "11.1212", rest: 5_550_100 });
    expect(treePlaceOf("+447911123456")).toEqual({ tag: "12.44791", rest: 1_123_456 });
    expect(treePlaceOf("+6831234")).toEqual({ tag: "7.", rest: 6_831_234 });
    expect(treePlaceOf("2125550100")).toBeUndefined();
    for (let node = 0; node < 1_111; node += 1) expect(nodeIndex(pathOfNode(node))).toBe(node);
    expect([0, 1, 2, 3].map((l) => pathOfNode(nodeOf(5_550_100, l)))).toEqual(["r", "r5", "r55", "r555"]);
  });

  it("a span leaf: 3 bytes a number, sorted, found by binary search", () => {
    const values = [0, 7, 99_999, 1_000_000, 9_999_999];
    const stored = encodeSpan(values);
    expect(stored.length).toBe(15);
    expect(decodeSpan(stored)).toEqual(values);
    for (const v of values) expect(spanHas(stored, v)).toBe(true);
    for (const v of [1, 8, 5_000_000, 9_999_998]) expect(spanHas(stored, v)).toBe(false);
  });
});
