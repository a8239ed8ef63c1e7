import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { type RedisServer, startRedisServer } from "../../src/daemon/redis-server.ts";
import {
  contactsCsv,
  drop,
  phoneOf,
  quietLogger,
  summaryOf,
  testSettings,
  waitFor,
  writeJob,
} from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { API_KEY } from "../support/fixtures.ts";
import { captureLogs } from "../support/log-capture.ts";
import { useSimulator } from "../support/simulator.ts";

const TOKEN = "op-token-5d1f0c9e8b7a6d4c";

/** One sample of a Prometheus text exposition, by metric name and exact labels; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels);
  for (const line of text.split("\n")) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (want.every(([k, v]) => have[k] === v) && Object.keys(have).length === want.length)
      return Number(m[3]);
  }
  return 0;
}

describe("the operator's surface over HTTP", () => {
  const t = useSimulator();
  let daemon: Daemon | undefined;
  let redisServer: RedisServer | undefined;
  afterEach(async () => {
    await daemon?.close();
    await redisServer?.stop("SIGKILL");
    daemon = undefined;
    redisServer = undefined;
  });

  async function start(env: NodeJS.ProcessEnv = {}, logger = quietLogger()) {
    const home = tempDir("vcw-http-");
    const inbox = join(home, "inbox");
    writeJob(join(home, "jobs"), "leads", inbox);
    const settings = testSettings(home, t.sim.url, { VCW_HTTP_ADDR: "127.0.0.1:0", ...env });
    daemon = await startDaemon({ settings, logger, watch: true, work: true });
    await daemon.ready;
    return { home, inbox, url: daemon.http!.url, daemon };
  }

  it("/readyz goes 503 naming Redis when Redis stops, and back to 200 when it returns; /livez stays 200", async () => {
    redisServer = await startRedisServer();
    const { port } = redisServer;
    const { url } = await start({ REDIS_URL: redisServer.url });
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    await redisServer.stop();
    const down = await waitFor(
      async () => {
        const r = await fetch(`${url}/readyz`);
        return r.status === 503
          ? ((await r.json()) as { failing: string[]; checks: Record<string, unknown> })
          : undefined;
      },
      10_000,
      "readyz 503",
    );
    expect(down.failing).toEqual(["redis"]);
    const live = await fetch(`${url}/livez`);
    expect(live.status).toBe(200);

    redisServer = await startRedisServer({ port });
    await waitFor(
      async () => ((await fetch(`${url}/readyz`)).status === 200 ? true : undefined),
      15_000,
      "readyz 200",
    );
  });

  it("/metrics counts a file's requests, contacts and files, and shows no phone or secret", async () => {
    const { inbox, url } = await start();
    drop(inbox, "five.csv", contactsCsv(5, { extra: ["not-a-phone,Bad Row,bad@example.com"] }));
    const summary = await waitFor(() => summaryOf(inbox, "five.csv"), 20_000, "import");
    expect(summary.created).toBe(5);
    // The worker's "completed" event follows the summary on disk, and the queue gauges are read
    // from an overview refreshed at most every second or so: wait for both.
    const text = await waitFor(
      async () => {
        const body = await (await fetch(`${url}/metrics`)).text();
        return sample(body, "vcw_files_total", { job: "leads", outcome: "imported" }) === 1 &&
          sample(body, "vcw_queue_jobs", { queue: "imports", state: "completed" }) === 1
          ? body
          : undefined;
      },
      10_000,
      "the import counted",
    );

    expect(sample(text, "vcw_api_requests_total", { operation: "contacts.create", status: "200" })).toBe(5);
    expect(sample(text, "vcw_api_request_duration_seconds_count", { operation: "contacts.create" })).toBe(5);
    expect(sample(text, "vcw_contacts_total", { job: "leads", outcome: "created" })).toBe(5);
    expect(sample(text, "vcw_contacts_total", { job: "leads", outcome: "rejected" })).toBe(1);
    expect(sample(text, "vcw_queue_jobs", { queue: "imports", state: "completed" })).toBe(1);
    expect(sample(text, "vcw_redis_up")).toBe(1);
    expect(sample(text, "vcw_inbox_files", { job: "leads", folder: "processing" })).toBe(0);
    expect(text).toContain("process_cpu_seconds_total");
    expect(text).not.toContain(API_KEY);
    for (let i = 0; i < 5; i++) expect(text).not.toContain(phoneOf(i).slice(2));
  });

  it("with a token, everything but /livez and /readyz asks for it; phones are shown only then", async () => {
    const logs = captureLogs();
    const { url, inbox } = await start({ VCW_HTTP_TOKEN: TOKEN }, logs.logger);
    expect((await fetch(`${url}/livez`)).status).toBe(200);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    for (const path of ["/metrics", "/api/overview", "/admin/queues", "/files/leads/done/x.errors.csv"])
      expect((await fetch(`${url}${path}`)).status, path).toBe(401);
    const page = await fetch(`${url}/`, { redirect: "manual", headers: { accept: "text/html" } });
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/login");
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await fetch(`${url}/metrics`, { headers: auth })).status).toBe(200);
    expect(
      (await fetch(`${url}/metrics`, { headers: { authorization: "Bearer wrong-token-0000000" } })).status,
    ).toBe(401);

    // A browser signs in once; the cookie carries the token from then on.
    const login = await fetch(`${url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: TOKEN }).toString(),
    });
    expect(login.status).toBe(303);
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    expect(login.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Strict/);
    expect(cookie).not.toContain(TOKEN);
    expect((await fetch(`${url}/api/overview`, { headers: { cookie } })).status).toBe(200);
    expect((await fetch(`${url}/api/overview`, { headers: { cookie: "vcw_token=forged" } })).status).toBe(
      401,
    );
    const wrong = await fetch(`${url}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "token=guess-guess-guess-guess",
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("set-cookie")).toBeNull();

    // Phones: masked unless asked, and asked only behind the token.
    drop(inbox, "bad.csv", contactsCsv(1, { extra: ["+1415999000,Short Phone,a@example.com"] }));
    const summary = await waitFor(() => summaryOf(inbox, "bad.csv"), 20_000, "import");
    const errors = `/files/leads/done/${encodeURIComponent(summary.errorsFile.split("/").pop()!)}`;
    const masked = await (await fetch(`${url}${errors}`, { headers: auth })).text();
    expect(masked).not.toContain("1415999000");
    expect(masked).toMatch(/\+14•+00/);
    const shown = await (await fetch(`${url}${errors}?phones=show`, { headers: auth })).text();
    expect(shown).toContain("+1415999000");
    // Bull Board lets an authenticated operator act on jobs.
    const retry = await fetch(`${url}/admin/queues/api/queues/vcw-import/retry/failed`, {
      method: "PUT",
      headers: auth,
    });
    expect(retry.status).toBeLessThan(300);
    // The token shows nowhere: not in what the server sends, not in the logs.
    for (const path of ["/", "/api/overview", "/metrics", "/admin/queues"])
      expect(await (await fetch(`${url}${path}`, { headers: auth })).text(), path).not.toContain(TOKEN);
    expect(logs.text()).toContain("httpToken: (hidden)");
    expect(logs.text()).not.toContain(TOKEN);
  });

  it("without a token: reports are masked, phones can't be revealed, Bull Board is read-only, only reports are served", async () => {
    const { url, inbox, home } = await start();
    drop(inbox, "bad.csv", contactsCsv(1, { extra: ["+1415999000,Short Phone,a@example.com"] }));
    const summary = await waitFor(() => summaryOf(inbox, "bad.csv"), 20_000, "import");
    const name = summary.errorsFile.split("/").pop()!;
    const report = await fetch(`${url}/files/leads/done/${encodeURIComponent(name)}`);
    expect(report.status).toBe(200);
    expect(report.headers.get("content-type")).toMatch(/^text\/csv/);
    const text = await report.text();
    expect(text).toContain("row_number");
    expect(text).not.toContain("1415999000");
    expect((await fetch(`${url}/files/leads/done/${encodeURIComponent(name)}?phones=show`)).status).toBe(403);
    expect((await fetch(`${url}/api/overview?phones=show`)).status).toBe(403);

    // Nothing but a report directly in done/ or rejected/ of a known job.
    const done = join(inbox, "done");
    const csv = readdirSync(done).find((f) => f.endsWith("-bad.csv"))!;
    writeFileSync(join(home, "secret.errors.csv"), "not for the web\n");
    symlinkSync(join(home, "secret.errors.csv"), join(done, "link.errors.csv"));
    mkdirSync(join(inbox, "processing"), { recursive: true });
    writeFileSync(join(inbox, "processing", "p.errors.csv"), "in processing\n");
    for (const path of [
      `/files/leads/done/${encodeURIComponent(csv)}`,
      "/files/leads/done/link.errors.csv",
      "/files/leads/processing/p.errors.csv",
      "/files/leads/done/..%2F..%2Fsecret.errors.csv",
      "/files/leads/done/%2e%2e%2fsecret.errors.csv",
      `/files/other/done/${encodeURIComponent(name)}`,
      "/files/leads/done/../../secret.errors.csv",
    ]) {
      const r = await fetch(`${url}${path}`);
      expect(r.status, path).toBe(404);
      expect(await r.text(), path).not.toContain("not for the web");
    }

    expect((await fetch(`${url}/admin/queues`)).status).toBe(200);
    const retry = await fetch(`${url}/admin/queues/api/queues/vcw-import/retry/failed`, { method: "PUT" });
    expect(retry.status).toBe(405);
  });

  it("refuses a taken address and a non-loopback address without a token, in words that say what to do", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as { port: number };
    try {
      await expect(start({ VCW_HTTP_ADDR: `127.0.0.1:${port}` })).rejects.toThrow(
        `VCW_HTTP_ADDR 127.0.0.1:${port} is taken`,
      );
    } finally {
      taken.close();
    }
    await expect(start({ VCW_HTTP_ADDR: "0.0.0.0:0" })).rejects.toThrow(/set VCW_HTTP_TOKEN/);
    daemon = undefined;
    // With a token it listens there.
    const { url } = await start({ VCW_HTTP_ADDR: "0.0.0.0:0", VCW_HTTP_TOKEN: TOKEN });
    const port2 = new URL(url).port;
    expect((await fetch(`http://127.0.0.1:${port2}/livez`)).status).toBe(200);
  });
});
