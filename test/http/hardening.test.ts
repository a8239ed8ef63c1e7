import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { type ClientRequest, get, type IncomingMessage } from "node:http";
import { join } from "node:path";
import { sign } from "@fastify/cookie";
import { Worker } from "bullmq";
import { Redis } from "ioredis";
import { afterEach, describe, expect, inject, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { sessionSecret } from "../../src/http/session.ts";
import {
  contactsCsv,
  drop,
  quietLogger,
  summaryOf,
  testSettings,
  waitFor,
  writeJob,
} from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { captureLogs } from "../support/log-capture.ts";
import { useSimulator } from "../support/simulator.ts";
import { cookieHeader, cookiesOf, raw } from "./raw-request.ts";

const TOKEN = "op-token-5d1f0c9e8b7a6d4c";
const PHONE = "+14155550199";
const DIGITS = PHONE.slice(2);

describe("the operator's surface holds against a hostile page", () => {
  const t = useSimulator();
  let daemon: Daemon | undefined;
  afterEach(async () => {
    await daemon?.close();
    daemon = undefined;
  });

  async function start(
    env: NodeJS.ProcessEnv = {},
    o: { logger?: ReturnType<typeof quietLogger>; work?: boolean } = {},
  ) {
    const home = tempDir("vcw-hard-");
    const inbox = join(home, "inbox");
    writeJob(join(home, "jobs"), "leads", inbox);
    const settings = testSettings(home, t.sim.url, {
      VCW_HTTP_ADDR: "127.0.0.1:0",
      VCW_HTTP_TOKEN: TOKEN,
      ...env,
    });
    daemon = await startDaemon({
      settings,
      logger: o.logger ?? quietLogger(),
      watch: true,
      work: o.work ?? true,
    });
    await daemon.ready;
    const url = daemon.http!.url;
    return { url, origin: url, host: new URL(url).host, inbox, daemon, settings };
  }

  /** Signs in as a browser would, then opens the page: the session, the CSRF secret and token cookies. */
  async function signIn(url: string) {
    const login = await raw(`${url}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: url },
      body: `token=${TOKEN}`,
    });
    expect(login.status).toBe(303);
    const session = cookiesOf(login);
    const page = await raw(`${url}/`, { headers: { cookie: cookieHeader(session), accept: "text/html" } });
    expect(page.status).toBe(200);
    return { ...session, ...cookiesOf(page) };
  }

  it("refuses a rebound Host: a page whose name points at 127.0.0.1 reads nothing", async () => {
    const { url, host } = await start({ VCW_HTTP_ALLOWED_HOSTS: "vcw.internal" });
    const port = new URL(url).port;
    const bearer = { authorization: `Bearer ${TOKEN}` };
    for (const path of ["/api/overview", "/metrics", "/admin/queues/api/queues", "/"]) {
      const rebound = await raw(`${url}${path}`, {
        headers: { ...bearer, host: `attacker.example:${port}` },
      });
      expect(rebound.status, path).toBe(421);
      expect(rebound.body, path).toContain("VCW_HTTP_ALLOWED_HOSTS");
      expect(rebound.body, path).not.toContain("vcw_queue");
    }
    expect((await raw(`${url}/api/overview`, { headers: { ...bearer, host } })).status).toBe(200);
    expect(
      (await raw(`${url}/api/overview`, { headers: { ...bearer, host: `localhost:${port}` } })).status,
    ).toBe(200);
    expect((await raw(`${url}/metrics`, { headers: { ...bearer, host: "vcw.internal:8443" } })).status).toBe(
      200,
    );
    // Probes answer any name: an orchestrator may use the pod's.
    expect((await raw(`${url}/livez`, { headers: { host: "10.1.2.3:9400" } })).status).toBe(200);
  });

  it("a form posted from another local port adds no job to Bull Board; the page's own request does", async () => {
    const { url, daemon } = await start({}, { work: false });
    const cookies = await signIn(url);
    expect(cookies["XSRF-TOKEN"]).toBeTruthy();
    const add = (headers: Record<string, string>, body: string) =>
      raw(`${url}/admin/queues/api/queues/vcw-follow-up/add`, {
        method: "POST",
        headers: { cookie: cookieHeader(cookies), ...headers },
        body,
      });
    const json = JSON.stringify({ name: "injected", data: { job: "leads" } });
    // The attack: another origin (a port of the same machine), the operator's cookies ride along.
    const evil = await add(
      { origin: "http://127.0.0.1:1", "content-type": "application/x-www-form-urlencoded" },
      "name=injected&data=%7B%7D",
    );
    expect(evil.status).toBe(403);
    expect(evil.body).toContain("this server's own pages");
    // The same from a page that hides its origin: the browser still says it is another site's.
    const hidden = await add(
      { origin: "null", "sec-fetch-site": "same-site", "content-type": "application/x-www-form-urlencoded" },
      "name=injected&data=%7B%7D",
    );
    expect(hidden.status).toBe(403);
    // Same origin but no CSRF token (a form can't read the cookie to send it).
    const noToken = await add({ origin: url, "content-type": "application/json" }, json);
    expect(noToken.status).toBe(403);
    expect(noToken.body).toContain("CSRF");
    const wrongToken = await add(
      { origin: url, "content-type": "application/json", "x-xsrf-token": "forged-token-value" },
      json,
    );
    expect(wrongToken.status).toBe(403);
    expect(await daemon.queues.followUps.count()).toBe(0);
    // The board's own page sends X-XSRF-TOKEN from the cookie: that one goes through.
    const own = await add(
      { origin: url, "content-type": "application/json", "x-xsrf-token": cookies["XSRF-TOKEN"]! },
      json,
    );
    expect(own.status, own.body).toBeLessThan(300);
    expect(await daemon.queues.followUps.count()).toBe(1);
  });

  it("1,500 wrong sign-ins: 10 are checked, the rest refused while the one wait they started runs, and logged", async () => {
    const logs = captureLogs();
    const { url } = await start({}, { logger: logs.logger });
    const started = Date.now();
    const statuses = new Map<number, number>();
    let next = 0;
    const guess = async () => {
      while (next < 1_500) {
        next += 1;
        const r = await raw(`${url}/login`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: `token=guess-${next}-0000000000`,
        });
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 25 }, guess));
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(statuses.get(401)).toBe(10);
    expect(statuses.get(429)).toBe(1_490);
    // Even the right token waits now, for what is left of the minute: refused attempts never moved
    // the wait's end (issue 43: they doubled it, to a day).
    const right = await raw(`${url}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `token=${TOKEN}`,
    });
    expect(right.status).toBe(429);
    const left = Number(right.headers["retry-after"]);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(60);
    const text = logs.text();
    expect(text.match(/sign-in refused: wrong token/g)?.length).toBe(10);
    expect(text).toContain("sign-in throttled");
    expect(text).not.toContain(TOKEN);
  }, 90_000);

  it("a session ends after VCW_HTTP_SESSION_HOURS and at sign-out; its cookie is Secure behind https", async () => {
    const logs = captureLogs();
    const { url } = await start(
      { VCW_HTTP_SESSION_HOURS: "2", VCW_PUBLIC_URL: "https://vcw.example.com" },
      { logger: logs.logger },
    );
    const login = await raw(`${url}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `token=${TOKEN}`,
    });
    const setCookie = String(login.headers["set-cookie"]);
    expect(setCookie).toMatch(/Max-Age=7200/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Secure/);
    const cookies = await signIn(url);
    const overview = () => raw(`${url}/api/overview`, { headers: { cookie: cookieHeader(cookies) } });
    expect((await overview()).status).toBe(200);

    // A cookie signed right but issued three hours ago is refused.
    const old = sign(`${"a".repeat(16)}.${Date.now() - 3 * 3_600_000}`, sessionSecret(TOKEN));
    const stale = await raw(`${url}/api/overview`, { headers: { cookie: `vcw_token=${old}` } });
    expect(stale.status).toBe(401);
    const fresh = sign(`${"a".repeat(16)}.${Date.now() - 3_600_000}`, sessionSecret(TOKEN));
    expect((await raw(`${url}/api/overview`, { headers: { cookie: `vcw_token=${fresh}` } })).status).toBe(
      200,
    );

    // Sign-out, from the page (its origin and CSRF token): the same cookie opens nothing after.
    const out = await raw(`${url}/logout`, {
      method: "POST",
      headers: {
        cookie: cookieHeader(cookies),
        origin: url,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: `_csrf=${encodeURIComponent(cookies["XSRF-TOKEN"]!)}`,
    });
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe("/login");
    expect((await overview()).status).toBe(401);
    expect(logs.text()).toMatch(/"who":"session [\w-]{8}".*dashboard sign-out/);
  });

  it("a cookie is Secure when a trusted proxy says https, not when anyone else says it", async () => {
    const { url } = await start({ VCW_HTTP_TRUST_PROXY: "127.0.0.1" });
    const viaProxy = await raw(`${url}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-proto": "https" },
      body: `token=${TOKEN}`,
    });
    expect(String(viaProxy.headers["set-cookie"])).toMatch(/Secure/);
    await daemon!.close();
    const { url: url2 } = await start();
    const untrusted = await raw(`${url2}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-proto": "https" },
      body: `token=${TOKEN}`,
    });
    expect(untrusted.status).toBe(303);
    expect(String(untrusted.headers["set-cookie"])).not.toMatch(/Secure/);
  });

  it("1,000 live dashboards: VCW_HTTP_MAX_STREAMS are served the same overview, the rest refused at once", async () => {
    const { url } = await start({ VCW_HTTP_MAX_STREAMS: "20" });
    const requests: ClientRequest[] = [];
    const firsts: string[] = [];
    const open = () =>
      new Promise<number>((resolve, reject) => {
        const req = get(
          `${url}/api/events`,
          { headers: { authorization: `Bearer ${TOKEN}` }, agent: false },
          (res: IncomingMessage) => {
            if (res.statusCode !== 200) {
              res.resume();
              resolve(res.statusCode ?? 0);
              return;
            }
            let text = "";
            res.on("data", (c: Buffer) => {
              text += c.toString();
              const m = /event: overview\ndata: (.*)\n\n/.exec(text);
              if (m && text !== "") {
                firsts.push(m[1]!);
                text = "";
                resolve(200);
                res.removeAllListeners("data");
                res.resume();
              }
            });
          },
        );
        req.on("error", reject);
        requests.push(req);
      });
    const started = Date.now();
    const statuses: number[] = [];
    for (let i = 0; i < 1_000; i += 100)
      statuses.push(...(await Promise.all(Array.from({ length: 100 }, open))));
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 503)).toHaveLength(980);
    // Those served were sent one text, made once.
    expect(new Set(firsts.map((f) => (JSON.parse(f) as { generatedAt: string }).generatedAt)).size).toBe(1);
    for (const r of requests) r.destroy();
    // Closed streams free their places.
    await waitFor(async () => ((await open()) === 200 ? true : undefined), 10_000, "a place freed");
    for (const r of requests) r.destroy();
  }, 60_000);

  it("Bull Board masks phones in failed reasons, stack traces, names and logs; the dashboard in file names", async () => {
    const { url, daemon, inbox } = await start({}, { work: false });
    const queue = daemon.queues.followUps;
    await queue.add(`call ${PHONE}`, { job: "leads", note: `dial ${PHONE}` } as never, { attempts: 1 });
    const connection = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
    const worker = new Worker(
      queue.name,
      async (job) => {
        await job.log(`dialing ${PHONE}`);
        throw new Error(`the service refused ${PHONE}`);
      },
      { connection, prefix: queue.opts.prefix!, autorun: true },
    );
    try {
      await waitFor(async () => ((await queue.getFailedCount()) === 1 ? true : undefined), 10_000, "failed");
    } finally {
      await worker.close();
      await connection.quit();
    }
    const auth = { authorization: `Bearer ${TOKEN}` };
    const list = await raw(`${url}/admin/queues/api/queues?activeQueue=${queue.name}&status=failed&page=1`, {
      headers: auth,
    });
    expect(list.status).toBe(200);
    expect(list.body).toContain("the service refused");
    expect(list.body).toContain("stacktrace");
    expect(list.body).not.toContain(DIGITS);
    const [failed] = await queue.getFailed();
    for (const path of [`/${failed!.id}`, `/${failed!.id}/logs`]) {
      const r = await raw(`${url}/admin/queues/api/queues/${queue.name}${path}`, { headers: auth });
      expect(r.status, path).toBe(200);
      expect(r.body, path).not.toContain(DIGITS);
      expect(r.body, path).toMatch(/\+14•+99/);
    }

    // A file whose name holds a phone number: masked wherever the page shows the name.
    await daemon.close();
    const second = await start();
    drop(second.inbox, `callback-${PHONE}.csv`, contactsCsv(2, { from: 91_000 }));
    await waitFor(() => summaryOf(second.inbox, `callback-${PHONE}.csv`), 20_000, "import");
    const overview = await waitFor(
      async () => {
        const o = JSON.parse((await raw(`${second.url}/api/overview`, { headers: auth })).body) as {
          recentFiles: { file: string }[];
        };
        return o.recentFiles.length ? o : undefined;
      },
      10_000,
      "listed",
    );
    expect(overview.recentFiles[0]!.file).toMatch(/^callback-\+14•+99\.csv$/);
    void inbox;
  });

  it("/metrics passes promtool check metrics (no gauge is named like a counter)", async () => {
    const { url } = await start();
    const text = (await raw(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).body;
    const gauges = [...text.matchAll(/^# TYPE (\S+) gauge$/gm)].map((m) => m[1]!);
    expect(gauges.length).toBeGreaterThan(5);
    expect(gauges.filter((g) => g.endsWith("_total"))).toEqual([]);
    const promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool"].find(existsSync);
    if (promtool) {
      const file = join(tempDir("vcw-prom-"), "metrics.txt");
      writeFileSync(file, text);
      // promtool reads the exposition on stdin; it exits non-zero on any problem it finds.
      const out = execFileSync("sh", [
        "-c",
        `${promtool} check metrics < "${file}" 2>&1; echo "exit $?"`,
      ]).toString();
      expect(out.trim()).toBe("exit 0");
    }
  });
});
