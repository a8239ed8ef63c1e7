import { randomBytes } from "node:crypto";
import type { Cluster } from "ioredis";
import { afterAll, describe, expect, inject, it } from "vitest";
import { clusterTarget, connectRedis } from "../../src/lib/redis.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createDoNotCallLists } from "../../src/pipeline/stores/dnc/do-not-call-lists.ts";
import type { ExtractLine } from "../../src/pipeline/stores/dnc/extract-reader.ts";
import { loadDoNotCallList } from "../../src/pipeline/stores/dnc/load-list.ts";

/** Do-not-call lists on a real 3-master Redis Cluster: blocks spread by area code, switches atomic. */
describe("do-not-call lists on Redis Cluster", () => {
  const cluster = connectRedis(clusterTarget(inject("clusterNodes"))) as Cluster;
  afterAll(async () => {
    await cluster.quit();
  });

  const AREAS = [212, 305, 405, 415, 503, 617, 713, 808];
  const numbers = (seed: number) =>
    AREAS.flatMap((area) =>
      Array.from(
        { length: 50 },
        (_, i) => `+1${area}${200 + ((i * 13 + seed) % 700)}${String(i * 37 + seed).padStart(4, "0")}`,
      ),
    );
  async function* lines(phones: string[]): AsyncGenerator<ExtractLine> {
    for (const [i, phone] of phones.entries()) yield { line: i + 1, phone };
  }

  it("loads across the masters, answers one MGET per area code, replaces and removes whole", async () => {
    const keys = redisKeys(`vcw-test-${randomBytes(4).toString("hex")}`);
    const first = numbers(1);
    const o = { source: "ftc", file: "ftc.txt", expiresInMs: undefined, maxBlocks: 7 };
    const loaded = await loadDoNotCallList(cluster, keys, lines(first), o);
    expect(loaded.list.numbers).toBe(new Set(first).size);
    // The area codes' blocks live on more than one master.
    const perMaster = await Promise.all(
      cluster
        .nodes("master")
        .map(async (node) => (await node.keys(`${keys.prefix}:dnc:{${loaded.list.version}:*`)).length),
    );
    expect(perMaster.filter((n) => n > 0).length).toBeGreaterThan(1);
    const lists = createDoNotCallLists(cluster, keys);
    const strangers = ["+12125550000", "+18089990001", "+447911123456"];
    const found = await lists.which([...first, ...strangers]);
    expect(found.size).toBe(new Set(first).size);
    const second = numbers(2);
    await loadDoNotCallList(cluster, keys, lines(second), o);
    const now = await lists.which([...first, ...second]);
    expect([...now.keys()].sort()).toEqual([...new Set(second)].sort());
    expect(await lists.remove("ftc")).toBe(true);
    expect((await lists.which(second)).size).toBe(0);
    const left = await Promise.all(cluster.nodes("master").map((node) => node.keys(`${keys.prefix}:dnc:*`)));
    expect(left.flat()).toEqual([]);
  });
});
