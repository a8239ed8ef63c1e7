import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { resolveRedis } from "../../src/daemon/redis-connection.ts";
import { freePort, pings } from "../../src/daemon/redis-server.ts";
import { tempDir } from "../support/files.ts";

const none = { value: undefined, source: "default" };
const auto = { redisUrl: none, redisCluster: none };
const given = (url: string) => ({ redisUrl: { value: url, source: "$REDIS_URL" }, redisCluster: none });

describe("resolveRedis", () => {
  it("uses REDIS_URL when set, and says so", async () => {
    const url = inject("redisUrl");
    expect(await resolveRedis(given(url), tempDir())).toEqual({
      target: { url },
      source: "$REDIS_URL",
    });
  });

  it("fails clearly when REDIS_URL does not answer", async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    await expect(resolveRedis(given(url), tempDir())).rejects.toThrow(
      `Redis does not answer at ${url} ($REDIS_URL)`,
    );
  });

  it("uses the default URL when it answers", async () => {
    const url = inject("redisUrl");
    const r = await resolveRedis(auto, tempDir(), url);
    expect(r).toMatchObject({ target: { url }, source: "default URL, it answered" });
    expect(r.server).toBeUndefined();
  });

  it("starts a private redis-server under the home folder when nothing answers, and finds it again", async () => {
    const home = tempDir();
    const dead = `redis://127.0.0.1:${await freePort()}`;
    const first = await resolveRedis(auto, home, dead);
    try {
      expect(first.server).toBeDefined();
      expect(first.source).toContain(join(home, "redis"));
      expect(await pings((first.target as { url: string }).url)).toBe(true);
      const again = await resolveRedis(auto, home, dead);
      expect((again.target as { url: string }).url).toBe((first.target as { url: string }).url);
      expect(again.server).toBeUndefined();
    } finally {
      await first.server?.stop();
    }
  });
});
