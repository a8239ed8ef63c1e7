/**
 * `npm run bench -- dashboard [--campaigns 10000] [--seconds 10] [--cap 50]`: a daemon (its own
 * process, `vcw start`) with 0, 100 and 1,000 live dashboards open (server-sent-event streams,
 * capped by VCW_HTTP_MAX_STREAMS, and again with the cap at 1,000 so every one is served): its CPU
 * and RSS, read from its own /metrics, against the same daemon with none. Then the dashboard's and
 * the campaigns view's load time in Chromium with no campaign kept, and with `--campaigns` kept.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { get, type IncomingMessage } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { chromium } from "playwright-core";
import { redisKeys } from "../src/lib/redis-keys.ts";
import { createCampaignStore } from "../src/pipeline/stores/campaign-store.ts";
import { fmt, mb, pool, table } from "./lib.ts";

const TOKEN = "bench-token-0123456789abcdef";
const JOB = "bench";
const auth = { authorization: `Bearer ${TOKEN}` };

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

/** `vcw start` as its own process: from the build when run from it, else through tsx. */
function startDaemon(env: NodeJS.ProcessEnv): ChildProcess {
  const here = import.meta.url;
  const script = here.endsWith(".ts")
    ? resolve(fileURLToPath(new URL("../bin/vcw.js", here)))
    : fileURLToPath(new URL("../src/cli/bin.js", here));
  return spawn(process.execPath, [script, "start"], { env: { ...process.env, ...env }, stdio: "ignore" });
}

async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { headers: auth })).text();
  const m = new RegExp(`^${name} (\\S+)$`, "m").exec(text);
  return m ? Number(m[1]) : Number.NaN;
}

/** Opens `n` live dashboards; resolves once each is served (200) or refused (503). */
async function openStreams(url: string, n: number) {
  const open: IncomingMessage[] = [];
  let refused = 0;
  await pool(
    n,
    100,
    () =>
      new Promise<void>((done, fail) => {
        const req = get(`${url}/api/events`, { headers: auth, agent: false }, (res) => {
          if (res.statusCode === 200) open.push(res);
          else refused += 1;
          res.resume();
          done();
        });
        req.on("error", fail);
      }),
  );
  return {
    served: open.length,
    refused,
    close: () => {
      for (const r of open) r.destroy();
    },
  };
}

async function seed(redis: Redis, prefix: string, n: number): Promise<void> {
  const store = createCampaignStore(redis, redisKeys(prefix));
  const now = Date.now();
  await pool(n, 64, (i) =>
    store.register(
      {
        id: `cmp_bench_${i}`,
        name: `${JOB} ${i}`,
        job: JOB,
        file: `file-${i}.csv`,
        sha256: randomBytes(32).toString("hex"),
        gen: 0,
        segmentId: "seg",
        scheduledAt: new Date(now - i * 60_000).toISOString(),
        state: "active",
        attempt: 0,
        followUps: [],
      },
      now - i * 60_000,
    ),
  );
}

async function pageLoad(url: string, path: string, ready: string): Promise<number> {
  const profile = mkdtempSync(join(tmpdir(), "vcw-bench-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    extraHTTPHeaders: auth,
  });
  try {
    const page = await context.newPage();
    const started = performance.now();
    await page.goto(`${url}${path}`);
    await page.locator(ready).first().waitFor({ timeout: 60_000 });
    return performance.now() - started;
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

export async function run(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { campaigns: { type: "string" }, seconds: { type: "string" }, cap: { type: "string" } },
    strict: false,
  });
  const campaigns = Number(values.campaigns ?? 10_000);
  const seconds = Number(values.seconds ?? 10);
  const cap = Number(values.cap ?? 50);
  const home = mkdtempSync(join(tmpdir(), "vcw-bench-dash-"));
  const prefix = `vcw-bench-${randomBytes(4).toString("hex")}`;
  mkdirSync(join(home, "jobs"));
  writeFileSync(
    join(home, "jobs", `${JOB}.yaml`),
    `name: ${JOB}\ninbox: ${join(home, "inbox")}\nsegment:\n  name: bench\ncontacts:\n  country: US\n`,
  );
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const redis = new Redis(redisUrl);
  const daemon = async (maxStreams: number) => {
    const port = await freePort();
    const child = startDaemon({
      REDIS_URL: redisUrl,
      VCW_PREFIX: prefix,
      VCW_JOBS_DIR: join(home, "jobs"),
      VCW_HOME: join(home, ".vcw"),
      VCW_HTTP_ADDR: `127.0.0.1:${port}`,
      VCW_HTTP_TOKEN: TOKEN,
      VCW_HTTP_MAX_STREAMS: String(maxStreams),
      LOG_LEVEL: "warn",
    });
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 300; i++) {
      if ((await fetch(`${url}/readyz`).catch(() => undefined))?.ok) return { url, child };
      await sleep(100);
    }
    child.kill("SIGKILL");
    throw new Error("the daemon did not get ready within 30 s");
  };
  try {
    const rows: Record<string, string | number>[] = [];
    let base = { cpu: 0, rss: 0 };
    for (const maxStreams of [cap, 1_000]) {
      const { url, child } = await daemon(maxStreams);
      try {
        for (const n of [0, 100, 1_000]) {
          const streams = await openStreams(url, n);
          await sleep(2_000);
          const cpu0 = await metric(url, "process_cpu_seconds_total");
          await sleep(seconds * 1_000);
          const cpu = ((await metric(url, "process_cpu_seconds_total")) - cpu0) / seconds;
          const rss = await metric(url, "process_resident_memory_bytes");
          if (n === 0 && maxStreams === cap) base = { cpu, rss };
          rows.push({
            VCW_HTTP_MAX_STREAMS: maxStreams,
            dashboards: n,
            served: streams.served,
            refused: streams.refused,
            "CPU %": fmt(cpu * 100, 1),
            RSS: mb(rss),
            "CPU vs none": fmt(cpu / Math.max(base.cpu, 1e-6), 2),
            "RSS vs none": fmt(rss / base.rss, 2),
          });
          streams.close();
          await sleep(1_000);
        }
      } finally {
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
    }
    table(rows);

    const { url, child } = await daemon(cap);
    try {
      const loads: Record<string, string | number>[] = [];
      const measure = async (kept: number) => ({
        kept,
        dashboard: await pageLoad(url, "/", kept ? "#campaigns .campaign" : "#campaigns .empty"),
        campaigns: await pageLoad(url, "/campaigns", "#campaign-list tbody tr"),
      });
      const none = await measure(0);
      await seed(redis, prefix, campaigns);
      await sleep(3_000); // the cached reads expire
      await pageLoad(url, "/campaigns", "#campaign-list tbody tr[data-campaign]"); // first read fills the cache
      const many = await measure(campaigns);
      for (const m of [none, many])
        loads.push({
          "campaigns kept": fmt(m.kept),
          "dashboard ms": fmt(m.dashboard),
          "campaigns view ms": fmt(m.campaigns),
          "dashboard vs none": fmt(m.dashboard / none.dashboard, 2),
          "campaigns view vs none": fmt(m.campaigns / none.campaigns, 2),
        });
      table(loads);
    } finally {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
  } finally {
    const keys = await redis.keys(`${prefix}:*`);
    for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
    redis.disconnect();
    rmSync(home, { recursive: true, force: true });
  }
}
