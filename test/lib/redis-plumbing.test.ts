import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisServer, startRedisServer } from "../../src/daemon/redis-server.ts";
import { withLock } from "../../src/lib/lock.ts";
import { defineScript } from "../../src/lib/scripts.ts";
import { useRedis } from "../support/redis.ts";

describe("Redis lock", () => {
  const { redis } = useRedis();
  const key = () => `vcw-test-lock-${randomBytes(4).toString("hex")}`;

  it("is held by one at a time; waiters get it in turn", async () => {
    const k = key();
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 5 }, () =>
        withLock(redis, k, { ttlMs: 5_000, pollMs: 5 }, async () => {
          inside += 1;
          most = Math.max(most, inside);
          await sleep(20);
          inside -= 1;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(await redis.exists(k)).toBe(0);
  });

  it("is renewed while the work runs longer than its TTL, and freed after", async () => {
    const k = key();
    // A 600 ms TTL (renewed every 200): a stall past 100 ms lapsed a 150 ms one; four TTLs still lapse it unrenewed.
    const result = await withLock(redis, k, { ttlMs: 600 }, async () => {
      await sleep(2_400); // four TTLs
      const other = await withLock(redis, k, { ttlMs: 600, wait: false }, async () => "stolen");
      return { other, ttl: await redis.pttl(k) };
    });
    expect(result).toMatchObject({ acquired: true, value: { other: { acquired: false } } });
    expect(result.acquired && result.value.ttl).toBeGreaterThan(0);
    expect(await redis.exists(k)).toBe(0);
  });

  it("tells the work when another holder took it (the lock was lost)", async () => {
    const k = key();
    const result = await withLock(redis, k, { ttlMs: 90 }, async (lost) => {
      await redis.set(k, "someone else");
      await sleep(200);
      return lost.aborted;
    });
    expect(result).toEqual({ acquired: true, value: true });
    expect(await redis.get(k)).toBe("someone else"); // not released by the former holder
  });

  it("reads what `readWith` asks in the round trip that takes it, and not when another holds it", async () => {
    const k = key();
    await redis.hset(`${k}:meta`, "version", "7");
    const readWith = [
      ["hgetall", `${k}:meta`],
      ["get", k],
    ] as const;
    const mine = await withLock(redis, k, { ttlMs: 5_000, readWith }, async (_lost, token, read) => ({
      token,
      read,
    }));
    expect(mine.acquired && mine.value.read).toEqual([{ version: "7" }, mine.acquired && mine.value.token]);
    await redis.set(k, "someone else");
    let ran = false;
    const theirs = await withLock(redis, k, { ttlMs: 5_000, wait: false, readWith }, async () => {
      ran = true;
    });
    expect([theirs.acquired, ran]).toEqual([false, false]);
    await redis.del(k, `${k}:meta`);
  });
});

describe("Lua scripts", () => {
  // A Redis of its own: MONITOR on the shared one sees every other test's BullMQ scripts, and
  // ioredis' monitor parser sometimes fails on them ("Command queue state error").
  let server: RedisServer;
  let monitor: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    monitor = new Redis(server.url);
  });
  afterAll(async () => {
    monitor.disconnect();
    await server.stop();
  });

  it("are sent by SHA once Redis knows them: the text travels at most once per connection", async () => {
    const redis = new Redis(server.url);
    const tag = `vcw-test-script-${randomBytes(4).toString("hex")}`;
    const echo = defineScript<string>(`echo_${randomBytes(3).toString("hex")}`, 1, "return ARGV[1]");
    const seen: string[] = [];
    const m = await monitor.monitor();
    m.on("monitor", (_time: string, args: string[]) => {
      if (args.includes(tag)) seen.push(String(args[0]).toLowerCase());
    });
    try {
      for (let i = 0; i < 20; i++) expect(await echo(redis, [tag], [`v${i}`])).toBe(`v${i}`);
      await sleep(100);
    } finally {
      m.disconnect();
      redis.disconnect();
    }
    // The first call may carry the text (EVAL); every later one is EVALSHA.
    expect(seen.filter((c) => c === "eval").length).toBeLessThanOrEqual(1);
    expect(seen.filter((c) => c === "evalsha").length).toBeGreaterThanOrEqual(19);
    expect(seen.filter((c) => c === "eval" || c === "evalsha").length).toBeLessThanOrEqual(21);
  });
});
