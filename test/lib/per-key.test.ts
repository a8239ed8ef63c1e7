import { randomBytes } from "node:crypto";
import { type Cluster, Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type KeyCommand, sendPerKey, sendPerKeyGroups } from "../../src/lib/per-key.ts";
import { clusterTarget, connectRedis, type RedisClient } from "../../src/lib/redis.ts";

/** Keys of `n` numbers, each its own hash tag (as keys.calls(phone)): on a Cluster, slots all over. */
const keysOf = (n: number) => {
  const run = randomBytes(4).toString("hex");
  return Array.from({ length: n }, (_, i) => `vcw-test-per-key:{${run}-${i}}`);
};

/** Hashes, sorted sets and a string under `keys`, and what each holds. */
async function seed(redis: RedisClient, keys: readonly string[]) {
  for (const [i, key] of keys.entries()) {
    if (i % 3 === 2) continue; // absent
    await redis.hset(key, { lastAt: String(i), campaign: `c${i}` });
    await redis.zadd(`${key}:times`, i, `m${i}`, i + 1, `n${i}`);
  }
}

/** What the same reads answer sent one by one, as the stores sent them before. */
const oneByOne = (redis: RedisClient, keys: readonly string[]) =>
  Promise.all([
    Promise.all(keys.map((k) => redis.hgetall(k))),
    Promise.all(keys.map((k) => redis.hmget(k, "lastAt", "campaign"))),
    Promise.all(keys.map((k) => redis.zrangebyscore(`${k}:times`, 0, "+inf", "WITHSCORES"))),
  ]);

const pipelinedReads = (redis: RedisClient, keys: readonly string[]) =>
  Promise.all([
    sendPerKey(
      redis,
      keys.map((k) => ["hgetall", k]),
    ),
    sendPerKey(
      redis,
      keys.map((k) => ["hmget", k, "lastAt", "campaign"]),
    ),
    sendPerKey(
      redis,
      keys.map((k) => ["zrangebyscore", `${k}:times`, 0, "+inf", "WITHSCORES"]),
    ),
  ]);

/** HSET then PEXPIRE of each key, as call-history's recordOutcomes sends them. */
const writeGroups = (keys: readonly string[]): KeyCommand[][] =>
  keys.map((k) => [
    ["hset", k, "outcome", "completed", "outcomeAt", "5"],
    ["pexpire", k, 600_000],
  ]);

async function expectWritten(redis: RedisClient, keys: readonly string[]) {
  for (const k of keys) {
    expect(await redis.hget(k, "outcome")).toBe("completed");
    const ttl = await redis.pttl(k);
    expect(ttl).toBeGreaterThan(500_000);
    expect(ttl).toBeLessThanOrEqual(600_000);
  }
}

/**
 * `work`'s result and the writes of these connections' sockets to the kernel meanwhile: each call of
 * a socket's `_write` or `_writev` (a command written alone is one; commands written while it was
 * corked leave in one `_writev`).
 */
async function counted<T>(
  nodes: readonly Redis[],
  work: () => Promise<T>,
): Promise<{ value: T; writes: number }> {
  let writes = 0;
  const restore: (() => void)[] = [];
  for (const node of nodes) {
    const socket = node.stream as unknown as Record<"_write" | "_writev", (...a: unknown[]) => unknown>;
    for (const name of ["_write", "_writev"] as const) {
      const original = socket[name];
      socket[name] = (...a: unknown[]) => {
        writes += 1;
        return original.apply(socket, a);
      };
      restore.push(() => {
        socket[name] = original;
      });
    }
  }
  try {
    return { value: await work(), writes };
  } finally {
    for (const r of restore) r();
  }
}

/** One command failing (HGETALL of a string) fails the whole, as Promise.all did. */
async function expectOneFailureFailsAll(redis: RedisClient) {
  const keys = keysOf(5);
  await redis.set(keys[3]!, "a string");
  await expect(
    sendPerKey(
      redis,
      keys.map((k) => ["hgetall", k]),
    ),
  ).rejects.toThrow(/WRONGTYPE/);
}

describe("sendPerKey on a single Redis", () => {
  const redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
  beforeAll(async () => {
    await redis.ping();
  });
  afterAll(async () => {
    await redis.quit();
  });
  const count = <T>(work: () => Promise<T>) => counted([redis], work);

  it("answers what commands sent one by one answer, in one socket write per command kind", async () => {
    const keys = keysOf(30);
    await seed(redis, keys);
    const alone = await count(() => oneByOne(redis, keys));
    // The counter sees each command sent alone: 90 commands, a write each.
    expect(alone.writes).toBe(90);
    const piped = await count(() => pipelinedReads(redis, keys));
    expect(piped.value).toEqual(alone.value);
    expect(piped.writes).toBe(3);
    // HGETALL as the named command gives it: an object ({} when absent).
    expect(piped.value[0][0]).toEqual({ lastAt: "0", campaign: "c0" });
    expect(piped.value[0][2]).toEqual({});
  });

  it("sends more than 1,000 commands 1,000 a write, all at once", async () => {
    const keys = keysOf(2_500);
    const sent = await count(() =>
      sendPerKey<Record<string, string>>(
        redis,
        keys.map((k) => ["hgetall", k]),
      ),
    );
    expect(sent.value).toHaveLength(2_500);
    expect(sent.writes).toBe(3);
  });

  it("runs each group's commands in order, every group in one write", async () => {
    const keys = keysOf(50);
    const sent = await count(() => sendPerKeyGroups<number>(redis, writeGroups(keys)));
    expect(sent.writes).toBe(1);
    expect(sent.value).toHaveLength(50);
    expect(sent.value[0]).toEqual([2, 1]); // two fields added, the TTL set
    await expectWritten(redis, keys);
  });

  it("fails the whole when one command fails, as Promise.all did", async () => {
    await expectOneFailureFailsAll(redis);
    expect(await sendPerKey(redis, [])).toEqual([]);
  });
});

describe("sendPerKey on a Redis Cluster", () => {
  const cluster = connectRedis(clusterTarget(inject("clusterNodes")));
  afterAll(async () => {
    await cluster.quit();
  });

  const nodeWrites = async (work: () => Promise<unknown>) =>
    (await counted((cluster as Cluster).nodes("all"), work)).writes;

  it("answers what commands sent one by one answer, keys on every master, a write per master", async () => {
    const keys = keysOf(60);
    await seed(cluster, keys);
    expect(await pipelinedReads(cluster, keys)).toEqual(await oneByOne(cluster, keys));
    const masters = (cluster as Cluster).nodes("master").length;
    expect(await nodeWrites(() => oneByOne(cluster, keys))).toBe(180);
    expect(await nodeWrites(() => pipelinedReads(cluster, keys))).toBeLessThanOrEqual(3 * masters);
  });

  it("writes each group (HSET, PEXPIRE) in order, and fails the whole on one failure", async () => {
    const keys = keysOf(40);
    const replies = await sendPerKeyGroups<number>(cluster, writeGroups(keys));
    expect(replies.every((r) => r[0] === 2 && r[1] === 1)).toBe(true);
    await expectWritten(cluster, keys);
    await expectOneFailureFailsAll(cluster);
  });
});
