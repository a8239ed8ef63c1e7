import { describe, expect, it } from "vitest";
import { createDoNotCallLists } from "../../../../src/pipeline/stores/dnc/do-not-call-lists.ts";
import { DoNotCallImportError } from "../../../../src/pipeline/stores/dnc/errors.ts";
import { type ExtractLine, readExtract } from "../../../../src/pipeline/stores/dnc/extract-reader.ts";
import { loadDoNotCallList } from "../../../../src/pipeline/stores/dnc/load-list.ts";
import { createSuppressionList } from "../../../../src/pipeline/stores/suppression.ts";
import { tempDir, writeFixture } from "../../../support/files.ts";
import { useRedis } from "../../../support/redis.ts";

const { redis, keys: freshKeys } = useRedis();
const DAY = 86_400_000;

/** `n` NANP numbers spread over a few area codes and exchanges, in a scrambled order. */
function nanpNumbers(n: number, seed = 1): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const area = [212, 305, 405, 415][i % 4]!;
    const exchange = 200 + ((i * 7 + seed) % 37);
    const line = (i * 7919 + seed * 31) % 10_000;
    out.push(`+1${area}${exchange}${String(line).padStart(4, "0")}`);
  }
  return out;
}

async function* linesOf(phones: readonly string[], failAt?: number): AsyncGenerator<ExtractLine> {
  for (let i = 0; i < phones.length; i += 1) {
    if (i === failAt) throw new Error("the extract's disk went away");
    yield { line: i + 1, phone: phones[i]! };
  }
}

const load = (
  keys: ReturnType<typeof freshKeys>,
  phones: readonly string[],
  over: Partial<Parameters<typeof loadDoNotCallList>[3]> = {},
) =>
  loadDoNotCallList(
    redis,
    keys,
    linesOf(phones, over === undefined ? undefined : (over as { failAt?: number }).failAt),
    {
      source: "ftc",
      file: "ftc.txt",
      expiresInMs: 31 * DAY,
      ...over,
    },
  );

describe("do-not-call lists", () => {
  it("hold exactly the numbers loaded, in any order, with blocks spilled and merged in bounded memory", async () => {
    const keys = freshKeys();
    const listed = nanpNumbers(20_000);
    const loaded = await load(keys, listed, { maxBlocks: 5 }); // far fewer than its 148 blocks: merges
    expect(loaded.list).toMatchObject({ source: "ftc", numbers: new Set(listed).size, invalid: 0 });
    const lists = createDoNotCallLists(redis, keys);
    const others = nanpNumbers(2_000, 99).filter((p) => !new Set(listed).has(p));
    const found = await lists.which([...listed.slice(0, 3_000), ...others, "+447911123456", "nonsense"]);
    expect(found.size).toBe(3_000);
    expect([...found.values()].every((s) => s === "ftc")).toBe(true);
    for (const p of others) expect(found.has(p)).toBe(false);
    // Compact: a plain set would take ~70 bytes a number.
    let bytes = 0;
    for await (const batch of redis.scanStream({
      match: `${keys.prefix}:dnc:*`,
      count: 1_000,
    }) as AsyncIterable<string[]>)
      for (const key of batch) bytes += (await redis.memory("USAGE", key)) ?? 0;
    expect(bytes / loaded.list.numbers).toBeLessThan(10);
  });

  it("answers through SuppressionList.which, beside the opt-outs, and tells the two apart", async () => {
    const keys = freshKeys();
    await load(keys, ["+12125550100", "+447911123456"]);
    const suppression = createSuppressionList(redis, keys);
    await suppression.add(["+14155550123"]);
    const asked = ["+12125550100", "+447911123456", "+14155550123", "+12125550101"];
    expect([...(await suppression.which(asked))].sort()).toEqual([
      "+12125550100",
      "+14155550123",
      "+447911123456",
    ]);
    expect([...(await suppression.optedOut(asked))]).toEqual(["+14155550123"]);
    expect([...(await suppression.doNotCall(asked)).keys()].sort()).toEqual([
      "+12125550100",
      "+447911123456",
    ]);
  });

  it("a re-import replaces the list whole, and deletes the version before", async () => {
    const keys = freshKeys();
    const first = await load(keys, ["+12125550100", "+12125550101"]);
    const second = await load(keys, ["+12125550101", "+13055550102"]);
    expect(second.replaced?.version).toBe(first.list.version);
    const lists = createDoNotCallLists(redis, keys);
    const found = await lists.which(["+12125550100", "+12125550101", "+13055550102"]);
    expect([...found.keys()].sort()).toEqual(["+12125550101", "+13055550102"]);
    expect(await redis.keys(`${keys.prefix}:dnc:{${first.list.version}*`)).toEqual([]);
    expect((await lists.lists()).map((l) => [l.source, l.numbers])).toEqual([["ftc", 2]]);
  });

  it("a load that fails half-way leaves the list in force as it was, and nothing of its own", async () => {
    const keys = freshKeys();
    const before = await load(keys, ["+12125550100"]);
    await expect(load(keys, nanpNumbers(5_000), { failAt: 4_000, maxBlocks: 3 } as never)).rejects.toThrow(
      /disk went away/,
    );
    const lists = createDoNotCallLists(redis, keys);
    expect((await lists.lists()).map((l) => l.version)).toEqual([before.list.version]);
    expect([...(await lists.which(["+12125550100", ...nanpNumbers(10)])).keys()]).toEqual(["+12125550100"]);
    const left = (await redis.keys(`${keys.prefix}:dnc:*`)).filter((k) => !k.includes(before.list.version));
    expect(left.filter((k) => !k.endsWith(":dnc:{lists}"))).toEqual([]);
  });

  it("a load whose process died is not in force, and the next import deletes it", async () => {
    const keys = freshKeys();
    // What a SIGKILLed import leaves: a version marked loading, with blocks.
    await redis.hset(keys.dncLoading, "deadbeef", JSON.stringify({ source: "ftc", startedAt: 1 }));
    await redis.sadd(keys.dncBlocks("deadbeef"), "-", "1212:555");
    await redis.set(keys.dncBlock("deadbeef", "1212", "555"), Buffer.from([0, 100]));
    const lists = createDoNotCallLists(redis, keys);
    expect((await lists.which(["+12125550100"])).size).toBe(0);
    await load(keys, ["+13055550100"]);
    expect(await redis.exists(keys.dncBlock("deadbeef", "1212", "555"), keys.dncBlocks("deadbeef"))).toBe(0);
    expect(await redis.hlen(keys.dncLoading)).toBe(0);
  });

  it("a lookup while the list is replaced again and again never misses a number both versions hold", async () => {
    const keys = freshKeys();
    const always = nanpNumbers(300, 5);
    await load(keys, always);
    const lists = createDoNotCallLists(redis, keys, { cacheMs: 60_000 }); // a stale cache, on purpose
    await lists.which(always); // caches the first version
    let stop = false;
    const reimports = (async () => {
      for (let i = 0; !stop && i < 40; i += 1) await load(keys, [...always, ...nanpNumbers(50, i + 10)]);
    })();
    let lookups = 0;
    while (!stop) {
      const found = await lists.which(always);
      expect(found.size).toBe(always.length);
      lookups += 1;
      if (lookups >= 200) stop = true;
    }
    stop = true;
    await reimports;
    expect(lookups).toBe(200);
  });

  it("refuses an extract that is mostly not numbers, and one of another source in flight", async () => {
    const keys = freshKeys();
    const bad: ExtractLine[] = [
      { line: 1, phone: "+12125550100" },
      { line: 2, problem: '"hello" is not a phone number' },
    ];
    async function* some() {
      yield* bad;
    }
    const refused = loadDoNotCallList(redis, keys, some(), {
      source: "ftc",
      file: "x.csv",
      expiresInMs: undefined,
    });
    await expect(refused).rejects.toBeInstanceOf(DoNotCallImportError);
    await expect(
      loadDoNotCallList(redis, keys, some(), { source: "ftc", file: "x.csv", expiresInMs: undefined }),
    ).rejects.toThrow(/1 of 2 lines are no phone number .*line 2: "hello" is not a phone number/);
    await expect(
      loadDoNotCallList(redis, keys, some(), { source: "FTC list", file: "x.csv", expiresInMs: undefined }),
    ).rejects.toThrow(/source "FTC list" must be/);
    expect(await createDoNotCallLists(redis, keys).lists()).toEqual([]);
  });

  it("an expired list still suppresses, and is warned about once", async () => {
    const keys = freshKeys();
    let now = Date.parse("2026-11-01T00:00:00Z");
    await load(keys, ["+12125550100"], { now: () => now, expiresInMs: 31 * DAY });
    now += 40 * DAY;
    const warned: string[] = [];
    const lists = createDoNotCallLists(redis, keys, {
      now: () => now,
      onExpired: (l) => warned.push(l.source),
    });
    expect((await lists.which(["+12125550100"])).get("+12125550100")).toBe("ftc");
    await lists.which(["+12125550100"]);
    expect(warned).toEqual(["ftc"]);
  });

  it("remove takes a source out of force", async () => {
    const keys = freshKeys();
    await load(keys, ["+12125550100"]);
    const lists = createDoNotCallLists(redis, keys);
    expect(await lists.remove("ftc")).toBe(true);
    expect(await lists.remove("ftc")).toBe(false);
    expect((await lists.which(["+12125550100"])).size).toBe(0);
    expect(await redis.keys(`${keys.prefix}:dnc:*`)).toEqual([]);
  });
});

describe("extracts", () => {
  const dir = tempDir("vcw-dnc-");
  const read = async (text: string, o: Parameters<typeof readExtract>[1] = {}) => {
    const out: ExtractLine[] = [];
    for await (const l of readExtract(writeFixture(dir, `e${Math.random()}.txt`, text), o)) out.push(l);
    return out;
  };

  it("reads the FTC flat file, numbers in any spelling, and says which line is no number", async () => {
    expect(
      await read(
        "212,5550100\r\n305, 5550101\n\n# a comment\n+1 (415) 555-0102\n4155550103\n+44 7911 123456\n12\n",
      ),
    ).toEqual([
      { line: 1, phone: "+12125550100" },
      { line: 2, phone: "+13055550101" },
      { line: 5, phone: "+14155550102" },
      { line: 6, phone: "+14155550103" },
      { line: 7, phone: "+447911123456" },
      { line: 8, problem: expect.stringContaining('"12"') },
    ]);
    expect(await read("07911 123456\n", { country: "GB" })).toEqual([{ line: 1, phone: "+447911123456" }]);
  });

  it("reads a CSV with a header: its phone column, or area code and number, or the named column", async () => {
    expect(await read("Name,Phone Number\nAna,212-555-0100\n")).toEqual([{ line: 2, phone: "+12125550100" }]);
    expect(await read("Area Code,Phone Number\n212,5550100\n")).toEqual([{ line: 2, phone: "+12125550100" }]);
    expect(await read('id,"Mobile, main",Other\n1,"(212) 555-0100",x\n', { column: "mobile, main" })).toEqual(
      [{ line: 2, phone: "+12125550100" }],
    );
    await expect(read("Name,Email\nAna,a@x.org\n")).rejects.toThrow(
      /line 1: no phone column in the header \(Name, Email\)/,
    );
    await expect(read("212,5550100\n", { column: "Phone" })).rejects.toThrow(/no header row/);
    await expect(read(`2125550100\n${"9".repeat(2_000_000)}`)).rejects.toThrow(
      /a line is longer than 4096 characters/,
    );
  });
});
