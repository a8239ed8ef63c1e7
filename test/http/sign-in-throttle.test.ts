import { randomBytes } from "node:crypto";
import { Agent } from "node:http";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { startRedisServer } from "../../src/daemon/redis-server.ts";
import { connectRedis } from "../../src/lib/redis.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { signInThrottle } from "../../src/pipeline/stores/sign-in-throttle.ts";
import { testSettings, waitFor, writeJob } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { captureLogs } from "../support/log-capture.ts";
import { useRedis } from "../support/redis.ts";
import { raw } from "./raw-request.ts";

const TOKEN = "op-token-throttle-1f2e3d4c5b6a";
/** The address both daemons take for a reverse proxy's (VCW_HTTP_TRUST_PROXY). */
const PROXY = "127.0.0.9";

/** Requests from one loopback address: each test's client is its own address. */
const from = (address: string) => new Agent({ localAddress: address, keepAlive: false });

describe("the token throttle: shared by the daemons, per way, on the daemons' clock (issues 32 and 43)", () => {
  const daemons: Daemon[] = [];
  const logs = [captureLogs(), captureLogs()];
  // The daemons' clock, moved by hand: a wait is served without sleeping through it.
  let clock = Date.now();
  const advance = (seconds: number) => {
    clock += seconds * 1000;
  };
  let a: string;
  let b: string;
  beforeAll(async () => {
    const prefix = `vcw-test-${randomBytes(4).toString("hex")}`;
    for (const [i, log] of logs.entries()) {
      const home = tempDir(`vcw-throttle-${i}-`);
      writeJob(join(home, "jobs"), "leads", join(home, "inbox"));
      const settings = testSettings(home, "http://127.0.0.1:9/api/v1", {
        VCW_HTTP_ADDR: "127.0.0.1:0",
        VCW_HTTP_TOKEN: TOKEN,
        VCW_PREFIX: prefix,
        VCW_HTTP_TRUST_PROXY: PROXY,
      });
      daemons.push(
        await startDaemon({ settings, logger: log.logger, watch: false, work: false, now: () => clock }),
      );
    }
    [a, b] = daemons.map((d) => d.http!.url) as [string, string];
  }, 60_000);
  afterAll(async () => {
    for (const d of daemons) await d.close();
  });

  const bearer = (url: string, token: string, agent: Agent, headers: Record<string, string> = {}) =>
    raw(`${url}/api/overview`, { headers: { authorization: `Bearer ${token}`, ...headers }, agent });
  const signIn = (url: string, token: string, agent: Agent) =>
    raw(`${url}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: url },
      body: `token=${token}`,
      agent,
    });
  const guess = (i: number) => `guess-${i}-000000000000`;
  /** Ten wrong bearer tokens, half at each daemon: all checked (401), the tenth starting a wait. */
  async function tenWrongBearers(agent: Agent, headers: Record<string, string> = {}) {
    for (let i = 0; i < 10; i++)
      expect((await bearer(i % 2 ? b : a, guess(i), agent, headers)).status).toBe(401);
  }

  it("bearer headers and sign-ins count apart: a scraper's stale token never locks the operator out, nor the other way round", async () => {
    const scraper = from("127.0.0.2");
    // Many requests with the right token: never held back.
    for (let i = 0; i < 30; i++) expect((await bearer(a, TOKEN, scraper)).status).toBe(200);
    await tenWrongBearers(scraper);
    const eleventh = await bearer(b, guess(10), scraper);
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers["retry-after"]).toBe("60");
    expect(JSON.parse(eleventh.body).error).toBe(
      "too many wrong bearer tokens from this address: try again in 60 seconds",
    );
    expect((await bearer(a, TOKEN, scraper)).status).toBe(429);
    // The operator at the same address (the same NAT) signs in.
    expect((await signIn(b, TOKEN, scraper)).status).toBe(303);

    const operator = from("127.0.0.3");
    const wrong = [];
    for (let i = 0; i < 10; i++) wrong.push((await signIn(i % 2 ? a : b, guess(i), operator)).status);
    expect(wrong).toEqual(Array(10).fill(401));
    const refused = await signIn(a, TOKEN, operator);
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("60");
    // Prometheus at the operator's address scrapes on.
    expect((await bearer(b, TOKEN, operator)).status).toBe(200);

    const [textA, textB] = logs.map((l) => l.text()) as [string, string];
    expect(`${textA}${textB}`.match(/request refused: wrong bearer token/g)).toHaveLength(10);
    expect(`${textA}${textB}`.match(/sign-in refused: wrong token/g)).toHaveLength(10);
    expect(`${textA}${textB}`).toMatch(/"way":"bearer".*sign-in throttled/);
    expect(`${textA}${textB}`).toMatch(/"way":"sign-in".*sign-in throttled/);
    expect(`${textA}${textB}`).not.toContain(TOKEN);
    expect(`${textA}${textB}`).not.toContain("guess-");
  });

  it("a refused attempt never moves the wait: after 11 wrong tokens, the right one every 2 s gets in once the first wait ends", async () => {
    const scraper = from("127.0.0.4");
    await tenWrongBearers(scraper);
    expect((await bearer(a, guess(10), scraper)).headers["retry-after"]).toBe("60");
    const told: string[] = [];
    for (;;) {
      advance(2);
      const r = await bearer(told.length % 2 ? a : b, TOKEN, scraper);
      if (r.status !== 429) {
        expect(r.status).toBe(200);
        break;
      }
      told.push(String(r.headers["retry-after"]));
    }
    // Issue 43: 120, 240, ... 61,440, then 86,400 for a day.
    expect(told).toEqual(Array.from({ length: 29 }, (_, i) => String(58 - 2 * i)));
    for (let i = 0; i < 5; i++) {
      advance(2);
      expect((await bearer(i % 2 ? a : b, TOKEN, scraper)).status).toBe(200);
    }
  });

  it("a wait doubles only when a new one starts: a wrong token after a wait served starts the next, up to a day", async () => {
    const client = from("127.0.0.5");
    await tenWrongBearers(client);
    const waits: number[] = [];
    for (let served = 0; served < 13; served++) {
      const first = Number((await bearer(a, guess(100 + served), client)).headers["retry-after"]);
      waits.push(first);
      // Attempts while it runs, right or wrong, by either daemon: told what is left, never more.
      advance(first / 2);
      for (const token of [TOKEN, guess(200), TOKEN])
        expect((await bearer(b, token, client)).headers["retry-after"]).toBe(String(first / 2));
      advance(first / 2);
      // Served: the next attempt is checked; a wrong one starts the next wait.
      expect((await bearer(b, guess(300 + served), client)).status).toBe(401);
    }
    expect(waits).toEqual([
      60, 120, 240, 480, 960, 1_920, 3_840, 7_680, 15_360, 30_720, 61_440, 86_400, 86_400,
    ]);
  });

  it("a window after its wait ends, a client is forgotten: ten more guesses are checked", async () => {
    const client = from("127.0.0.6");
    await tenWrongBearers(client);
    advance(60 + 59);
    // Within the window after the wait: one wrong guess starts the next wait (120 s).
    expect((await bearer(a, guess(10), client)).status).toBe(401);
    expect((await bearer(a, TOKEN, client)).headers["retry-after"]).toBe("120");
    advance(120 + 60);
    await tenWrongBearers(client);
    // Forgotten: the wait starts again at a minute.
    expect((await bearer(b, TOKEN, client)).headers["retry-after"]).toBe("60");
  });

  it("behind a proxy named in VCW_HTTP_TRUST_PROXY each client counts apart; anyone else's X-Forwarded-For is not believed", async () => {
    const proxy = from(PROXY);
    const one = { "x-forwarded-for": "203.0.113.5" };
    await tenWrongBearers(proxy, one);
    expect((await bearer(a, TOKEN, proxy, one)).status).toBe(429);
    expect((await bearer(a, TOKEN, proxy, { "x-forwarded-for": "203.0.113.6" })).status).toBe(200);
    expect((await bearer(b, TOKEN, proxy)).status).toBe(200);
    // A client that is no trusted proxy can't pick a fresh address for each guess.
    const direct = from("127.0.0.7");
    for (let i = 0; i < 10; i++) await bearer(a, guess(i), direct, { "x-forwarded-for": `198.51.100.${i}` });
    expect((await bearer(b, TOKEN, direct, { "x-forwarded-for": "198.51.100.99" })).status).toBe(429);
  });
});

describe("the throttle on the real clock", () => {
  const { redis, keys } = useRedis();

  it("a one-second wait is served in one second of real time", async () => {
    const throttle = signInThrottle(redis, keys(), {
      now: Date.now,
      limit: { max: 2, windowMs: 1_000, capMs: 4_000 },
    });
    await throttle.wrongBearer("192.0.2.1");
    await throttle.wrongBearer("192.0.2.1");
    const { ms: wait, why } = await throttle.bearer("192.0.2.1");
    expect(why).toBe("attempts");
    expect(wait).toBeGreaterThan(800);
    expect(wait).toBeLessThanOrEqual(1_000);
    expect((await throttle.signIn("192.0.2.1")).ms).toBe(0); // the other way is not held back
    await sleep(wait + 20);
    expect((await throttle.bearer("192.0.2.1")).ms).toBe(0);
  });
});

describe("the throttle when Redis is slow or gone (a real redis-server, stopped and killed)", () => {
  it("connected but silent (SIGSTOP): refused for a second, never checked uncounted; gone: checked", async () => {
    const server = await startRedisServer();
    const redis = connectRedis({ url: server.url });
    try {
      await waitFor(() => (redis.status === "ready" ? true : undefined), 10_000, "connected");
      const throttle = signInThrottle(redis, redisKeys(`throttle-${randomBytes(4).toString("hex")}`), {
        now: Date.now,
      });
      expect((await throttle.signIn("192.0.2.9")).ms).toBe(0);
      // A Redis that answers nothing while the connection stands: as a flood of attempts keeping the
      // daemon busy looks. Checking the attempt uncounted would let a flood past the limit (it did).
      server.process.kill("SIGSTOP");
      const started = Date.now();
      // Refused for a second, and said why: not the client's attempts (it was logged as too many attempts).
      expect(await throttle.signIn("192.0.2.9")).toEqual({ ms: 1_000, why: "busy" });
      expect(await throttle.bearer("192.0.2.9")).toEqual({ ms: 1_000, why: "busy" });
      expect(Date.now() - started).toBeLessThan(5_000);
      server.process.kill("SIGCONT");
      // Redis gone: sign-in must still work, so the attempt is checked.
      await server.stop("SIGKILL");
      await waitFor(() => (redis.status !== "ready" ? true : undefined), 10_000, "the connection lost");
      expect((await throttle.signIn("192.0.2.9")).ms).toBe(0);
    } finally {
      redis.disconnect();
      server.process.kill("SIGCONT");
      await server.stop("SIGKILL");
    }
  });
});
