import { randomBytes } from "node:crypto";
import { Agent } from "node:http";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { testSettings, writeJob } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { captureLogs } from "../support/log-capture.ts";
import { raw } from "./raw-request.ts";

const TOKEN = "op-token-throttle-1f2e3d4c5b6a";

/** Requests from one loopback address: each test's client is its own address. */
const from = (address: string) => new Agent({ localAddress: address, keepAlive: false });

describe("every way of presenting the token is throttled, in Redis, across daemons (issue 32 items 3 and 4)", () => {
  const daemons: Daemon[] = [];
  const logs = [captureLogs(), captureLogs()];
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
      });
      daemons.push(await startDaemon({ settings, logger: log.logger, watch: false, work: false }));
    }
    [a, b] = daemons.map((d) => d.http!.url) as [string, string];
  }, 60_000);
  afterAll(async () => {
    for (const d of daemons) await d.close();
  });

  const bearer = (url: string, token: string, agent: Agent) =>
    raw(`${url}/api/overview`, { headers: { authorization: `Bearer ${token}` }, agent });
  const signIn = (url: string, token: string, agent: Agent) =>
    raw(`${url}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: url },
      body: `token=${token}`,
      agent,
    });

  it("bearer guesses count with sign-ins, in every daemon; each attempt while waiting doubles the wait", async () => {
    const client = from("127.0.0.2");
    // Many requests with the right token: never held back.
    for (let i = 0; i < 30; i++) expect((await bearer(a, TOKEN, client)).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await bearer(a, `guess-${i}-000000000000`, client)).status);
    for (let i = 6; i < 10; i++) statuses.push((await signIn(b, `guess-${i}-000000000000`, client)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401, 401]);
    // The eleventh attempt, on the other daemon, by bearer: refused unchecked, with the wait.
    const eleventh = await bearer(b, `guess-10-000000000000`, client);
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers["retry-after"]).toBe("60");
    // Even the right token waits, by either way, and each attempt doubles the wait.
    const waits: string[] = [];
    for (const r of [
      await bearer(a, TOKEN, client),
      await signIn(b, TOKEN, client),
      await bearer(b, TOKEN, client),
    ]) {
      expect(r.status).toBe(429);
      waits.push(String(r.headers["retry-after"]));
    }
    expect(waits).toEqual(["120", "240", "480"]);
    const [textA, textB] = logs.map((l) => l.text()) as [string, string];
    expect(textA.match(/request refused: wrong bearer token/g)).toHaveLength(6);
    expect(textB.match(/sign-in refused: wrong token/g)).toHaveLength(4);
    expect(`${textA}${textB}`).toContain("sign-in throttled");
    expect(`${textA}${textB}`).not.toContain(TOKEN);
    expect(`${textA}${textB}`).not.toContain("guess-");
  });

  it("a wait ends when announced, not before and not after; a guess after it starts the wait again", async () => {
    const client = from("127.0.0.3");
    for (let i = 0; i < 10; i++)
      expect((await bearer(a, `guess-${i}-000000000000`, client)).status).toBe(401);
    // The limit passed: five more attempts double the wait to 60 * 2^5 s, as announced.
    const refused = [];
    for (let i = 0; i < 6; i++)
      refused.push((await signIn(a, `guess-x${i}-0000000000`, client)).headers["retry-after"]);
    expect(refused).toEqual(["60", "120", "240", "480", "960", "1920"]);

    // Another client waits out its announced 60 s: then its next attempt is checked.
    const other = from("127.0.0.4");
    for (let i = 0; i < 10; i++) await bearer(b, `guess-${i}-000000000000`, other);
    const first = await bearer(a, "guess-y-000000000000", other);
    expect(first.headers["retry-after"]).toBe("60");
    const announcedAt = Date.now();
    await sleep(60_500 - (Date.now() - announcedAt));
    expect((await bearer(b, TOKEN, other)).status).toBe(200);
    expect((await bearer(a, "guess-z-000000000000", other)).status).toBe(401);
    // That guess started the wait again: the next attempt is told it doubled.
    expect((await bearer(a, "guess-w-000000000000", other)).headers["retry-after"]).toBe("120");
    // The first client, 61 s into its 1920 s, still waits (it used to be let in after a minute).
    const still = await bearer(b, TOKEN, client);
    expect(still.status).toBe(429);
    expect(Number(still.headers["retry-after"])).toBeGreaterThan(1_800);
  }, 120_000);
});
