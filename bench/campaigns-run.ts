/**
 * One run of the campaigns benchmark: a private Redis, a simulator in a child process (which records
 * which campaign was asked for when), `live` campaigns registered as the daemon
 * registers them, and one compiled `vcw start` of the given code tree polling them on a 10 s
 * schedule for a fixed time. Measures the daemon from outside: /proc for CPU and peak RSS, Redis
 * INFO for memory, the simulator's log of requests for polls, the campaigns' meta for when each end was noticed.
 */
import { type ChildProcess, fork, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { startRedisServer } from "../src/daemon/redis-server.ts";
import { redisKeys } from "../src/lib/redis-keys.ts";
import { createCampaignStore } from "../src/pipeline/stores/campaign-store.ts";
import { DEMO_ASSISTANT, DEMO_DIALER } from "../src/simulator/demo-records.ts";
import type { SeededCampaign, SimCommand } from "./campaigns-sim-child.ts";
import { cpuMsOf } from "./lib.ts";

const KEY = "bench-key-0123456789";
const PREFIX = "bench";
const JOB = "bench";
export const PERIOD_MS = 10_000;

export interface RunOptions {
  label: string;
  /** The code tree whose compiled daemon runs (dist/src/cli/bin.js under it). */
  root: string;
  live: number;
  calling: number;
  contacts: number;
  seconds: number;
  timeScale: number;
}

export interface CampaignsRun {
  label: string;
  live: number;
  calling: number;
  waiting: number;
  seconds: number;
  /** Every calling campaign polled once a tick while its calls go on (the same need for any code). */
  pollsNeededPerSec: number;
  pollsDonePerSec: number;
  /** Of (calling campaign, tick) pairs while its calls went on: the share with a poll in that tick. */
  callingPolledEveryTick: number;
  requestsPerCampaignHour: { calling: number; waiting: number };
  cpuMsPerPoll: number;
  daemonCpuCores: number;
  /** The simulator's and Redis's CPU in the window: with the daemon's, what the machine's cores were asked for. */
  simCpuCores: number;
  redisCpuCores: number;
  /** Redis commands the window's polls sent, a poll (INFO commandstats: the daemon's and the bench's few). */
  redisCommandsPerPoll: number;
  peakRssMb: number;
  redisBytesPerCampaign: number;
  /** The same after an hour: the finished poll jobs kept now, as many more as an hour keeps. */
  redisBytesPerCampaignHour: number;
  /** The longest tick's enqueue (take the campaigns, add their jobs), in the window. */
  tickEnqueueMs: number;
  /** Median delay from a campaign's last call ending to the daemon recording its end; p95; missed. */
  endNoticedAfterMs: number;
  endNoticedAfterMsP95: number;
  endsNoticed: number;
  endsMissed: number;
  /** The most overdue campaign at a tick, as the daemon reported it (ours only; -1: not reported). */
  maxLagMs: number;
  behindTicks: number;
}

const here = fileURLToPath(new URL(".", import.meta.url));

/** utime + stime of a process, in ms (/proc: 100 ticks a second). */
const peakRssMbOf = (pid: number) =>
  Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024);

/** Calls per command so far (INFO commandstats). */
async function commandCalls(redis: Redis): Promise<Map<string, number>> {
  const calls = new Map<string, number>();
  for (const m of (await redis.info("commandstats")).matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm))
    calls.set(m[1]!, Number(m[2]));
  return calls;
}

const usedMemory = async (redis: Redis) => Number(/used_memory:(\d+)/.exec(await redis.info("memory"))![1]);

export function startSim(timeScale: number) {
  const child = fork(join(here, "campaigns-sim-child.js"), [KEY, String(timeScale), "2000"], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const reply = <T>() => new Promise<T>((resolve) => child.once("message", (m) => resolve(m as T)));
  const ask = <T>(command: SimCommand) => {
    const answer = reply<T>();
    child.send(command);
    return answer;
  };
  return { child, ready: reply<{ url: string }>(), ask };
}

async function register(redis: Redis, campaigns: SeededCampaign[], contacts: number): Promise<void> {
  const store = createCampaignStore(redis, redisKeys(PREFIX));
  const now = Date.now();
  for (let i = 0; i < campaigns.length; i += 500) {
    await Promise.all(
      campaigns.slice(i, i + 500).map((c) =>
        store.register(
          {
            id: c.id,
            name: c.id,
            job: JOB,
            file: "bench.csv",
            sha256: "0".repeat(64),
            gen: 1,
            segmentId: "seg_bench",
            scheduledAt: new Date(c.calling ? now : now + 86_400_000).toISOString(),
            state: "active",
            attempt: 0,
            audience: contacts,
            followUps: [],
          },
          now,
        ),
      ),
    );
  }
}

/** The bench job: a campaign per file, polled on `schedule`. */
export const benchJob = (home: string, segment: string, schedule = "*/10 * * * * *") =>
  [
    `name: ${JOB}`,
    `inbox: ${join(home, "inbox")}`,
    `segment:\n  ${segment}`,
    "contacts:\n  country: US",
    `campaign:\n  assistant:\n    id: ${DEMO_ASSISTANT.id}\n  dialer:\n    id: ${DEMO_DIALER.id}`,
    `polling:\n  schedule: "${schedule}"`,
    "",
  ].join("\n");

/** One compiled `vcw start` of the code tree at `root`, its log in `home`. */
export function startDaemon(
  root: string,
  simUrl: string,
  redisUrl: string,
  home: string,
  job = benchJob(home, "id: seg_bench"),
): ChildProcess {
  const jobs = join(home, "jobs");
  mkdirSync(jobs, { recursive: true });
  writeFileSync(join(jobs, `${JOB}.yaml`), job);
  const log = openSync(join(home, "daemon.log"), "w");
  return spawn(process.execPath, [join(root, "dist/src/cli/bin.js"), "start"], {
    cwd: home,
    stdio: ["ignore", log, log],
    env: {
      PATH: process.env.PATH ?? "",
      REDIS_URL: redisUrl,
      VCS_BASE_URL: simUrl,
      VCS_API_KEY: KEY,
      VCW_JOBS_DIR: jobs,
      VCW_HOME: join(home, ".vcw"),
      VCW_PREFIX: PREFIX,
      VCW_HTTP_ADDR: "off",
      VCW_RATE_LIMIT: "100000",
      VCW_STABLE_MS: "200",
      LOG_LEVEL: "info",
      // Node's own flags for the daemon, as for daemon-process.ts's (--cpu-prof --cpu-prof-dir=DIR).
      ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
    },
  });
}

/** The base's tick enqueue: its poll jobs of one tick are kept an hour, each with the time it was added. */
async function keptJobsSpreadMs(redis: Redis, ids: string[], tickSec: number): Promise<number | undefined> {
  const queue = redisKeys(PREFIX).queue("vcw-poll");
  const pipe = redis.pipeline();
  for (const id of ids)
    pipe.hget(`${queue}:vcw-poll:poll-${id.replace(/[^A-Za-z0-9_.-]/g, "_")}-${tickSec}`, "timestamp");
  const stamps = ((await pipe.exec()) ?? []).map(([, v]) => Number(v)).filter((v) => v > 0);
  if (stamps.length < ids.length * 0.9) return undefined;
  return Math.max(...stamps) - Math.min(...stamps);
}

export async function runCampaigns(o: RunOptions): Promise<CampaignsRun> {
  const server = await startRedisServer();
  const redis = new Redis(server.url, { maxRetriesPerRequest: null });
  const sim = startSim(o.timeScale);
  const home = mkdtempSync(join(tmpdir(), `vcw-bench-campaigns-${o.label}-`));
  let daemon: ChildProcess | undefined;
  try {
    const { url } = await sim.ready;
    const memEmpty = await usedMemory(redis);
    const { campaigns } = await sim.ask<{ campaigns: SeededCampaign[] }>({
      kind: "seed",
      calling: o.calling,
      waiting: o.live - o.calling,
      contacts: o.contacts,
    });
    await register(redis, campaigns, o.contacts);
    daemon = startDaemon(o.root, url, server.url, home);
    const startedAt = Date.now();
    const pid = daemon.pid!;
    // A tick or so to start; the window opens at a tick.
    await sleep(PERIOD_MS - (Date.now() % PERIOD_MS) + PERIOD_MS - 500);
    const w0 = Date.now();
    const cpu0 = cpuMsOf(pid) ?? 0;
    const others = [sim.child.pid, server.process.pid];
    const others0 = others.map((p) => cpuMsOf(p) ?? 0);
    const commands0 = await commandCalls(redis);
    const store = createCampaignStore(redis, redisKeys(PREFIX));
    let maxLagMs = -1;
    let maxEnqueueMs = -1;
    let behindTicks = 0;
    let lastLagAt = 0;
    while (Date.now() - w0 < o.seconds * 1000) {
      await sleep(1_000);
      const lag = await store.pollLag(JOB);
      if (lag && lag.at !== lastLagAt && lag.at >= w0) {
        lastLagAt = lag.at;
        maxLagMs = Math.max(maxLagMs, lag.lagMs);
        maxEnqueueMs = Math.max(maxEnqueueMs, lag.enqueueMs ?? -1);
        if (lag.behind) behindTicks += 1;
      }
    }
    const w1 = Date.now();
    const cpu1 = cpuMsOf(pid) ?? 0;
    const [simCpuMs, redisCpuMs] = others.map((p, i) => (cpuMsOf(p) ?? 0) - others0[i]!);
    const commands1 = await commandCalls(redis);
    if (process.env.BENCH_MONITOR) await monitorTwoSeconds(server.url);
    const peakRssMb = peakRssMbOf(pid);
    const mem1 = await usedMemory(redis);
    const kept = await keptPollJobBytes(redis);
    if (process.env.BENCH_MEMORY_BREAKDOWN) await printMemoryBreakdown(redis, o.live);
    const { origin, times } = await sim.ask<{ origin: number; times: Record<string, number[]> }>({
      kind: "requests",
    });
    const ticks: number[] = [];
    for (let t = Math.ceil(w0 / PERIOD_MS) * PERIOD_MS; t + PERIOD_MS <= w1; t += PERIOD_MS) ticks.push(t);
    if (maxEnqueueMs < 0) {
      // Code that doesn't report its ticks: the spread of the add times of each tick's kept jobs.
      for (const t of ticks) {
        const spread = await keptJobsSpreadMs(
          redis,
          campaigns.map((c) => c.id),
          t / 1000,
        );
        if (spread !== undefined) maxEnqueueMs = Math.max(maxEnqueueMs, spread);
      }
    }
    const calling = campaigns.filter((c) => c.calling);
    const inWindow = (c: SeededCampaign) =>
      (times[c.id] ?? []).map((t) => origin + t).filter((t) => t >= w0 && t < w1);
    const polls = campaigns.reduce((n, c) => n + inWindow(c).length, 0);
    let needed = 0;
    let polled = 0;
    for (const c of calling) {
      const at = inWindow(c);
      for (const t of ticks) {
        if (c.finishesAt <= t) continue;
        needed += 1;
        if (at.some((x) => x >= t && x < t + PERIOD_MS)) polled += 1;
      }
    }
    const ends = await noticedEnds(redis, calling, w1 - 2 * PERIOD_MS);
    const hours = (w1 - w0) / 3_600_000;
    const per = (list: SeededCampaign[]) =>
      list.length === 0 ? 0 : list.reduce((n, c) => n + inWindow(c).length, 0) / list.length / hours;
    const seconds = (w1 - w0) / 1000;
    const sent = [...commands1].map(([c, n]) => [c, n - (commands0.get(c) ?? 0)] as const);
    if (process.env.BENCH_COMMANDS)
      for (const [c, n] of sent.sort((a, b) => b[1] - a[1]).slice(0, 25))
        console.error(`${o.label} ${c}: ${round(n / Math.max(1, polls), 2)} a poll`);
    return {
      label: o.label,
      live: o.live,
      calling: o.calling,
      waiting: o.live - o.calling,
      seconds: Math.round(seconds),
      pollsNeededPerSec: round(needed / seconds, 1),
      pollsDonePerSec: round(polls / seconds, 1),
      callingPolledEveryTick: round(needed === 0 ? 1 : polled / needed, 4),
      requestsPerCampaignHour: {
        calling: round(per(calling), 1),
        waiting: round(per(campaigns.filter((c) => !c.calling)), 1),
      },
      cpuMsPerPoll: round((cpu1 - cpu0) / Math.max(1, polls), 3),
      daemonCpuCores: round((cpu1 - cpu0) / (w1 - w0), 3),
      simCpuCores: round(simCpuMs! / (w1 - w0), 3),
      redisCpuCores: round(redisCpuMs! / (w1 - w0), 3),
      redisCommandsPerPoll: round(sent.reduce((n, [, k]) => n + k, 0) / Math.max(1, polls), 1),
      peakRssMb,
      redisBytesPerCampaign: Math.round((mem1 - memEmpty) / o.live),
      // Finished poll jobs kept an hour pile up for an hour: what the daemon kept so far, scaled to one.
      redisBytesPerCampaignHour: Math.round(
        (mem1 - memEmpty + kept * Math.max(0, 3_600_000 / (w1 - startedAt) - 1)) / o.live,
      ),
      tickEnqueueMs: maxEnqueueMs,
      ...ends,
      maxLagMs,
      behindTicks,
    };
  } finally {
    // Measured: its shutdown is not part of the run. Profiled, it stops itself so Node writes the profile.
    daemon?.kill(process.env.BENCH_NODE_OPTIONS?.includes("--cpu-prof") ? "SIGTERM" : "SIGKILL");
    if (daemon && daemon.exitCode === null) await new Promise((resolve) => daemon!.once("exit", resolve));
    sim.child.kill();
    await redis.quit();
    await server.stop();
    if (!process.env.BENCH_KEEP) rmSync(home, { recursive: true, force: true });
    else if (existsSync(home)) console.error(`kept ${home}`);
  }
}

/** Bytes of the finished poll jobs Redis keeps now: their count times the size of a sample. */
async function keptPollJobBytes(redis: Redis): Promise<number> {
  const queue = `${redisKeys(PREFIX).queue("vcw-poll")}:vcw-poll`;
  const count = await redis.zcard(`${queue}:completed`);
  if (count === 0) return 0;
  const sample = await redis.zrange(`${queue}:completed`, "0", "49");
  let bytes = 0;
  for (const id of sample) bytes += Number((await redis.memory("USAGE", `${queue}:${id}`)) ?? 0);
  return (bytes / sample.length) * count;
}

/** Of the calling campaigns whose last call ended by `by`: when the daemon recorded each end. */
async function noticedEnds(redis: Redis, calling: SeededCampaign[], by: number) {
  const meta = redisKeys(PREFIX).campaign.meta;
  const ended = calling.filter((c) => c.finishesAt <= by);
  const pipe = redis.pipeline();
  for (const c of ended) pipe.hget(meta(c.id), "endedAt");
  const at = ((await pipe.exec()) ?? []).map(([, v]) => Number(v ?? 0));
  const delays = ended.flatMap((c, i) => (at[i]! > 0 ? [Math.max(0, at[i]! - c.finishesAt)] : []));
  delays.sort((a, b) => a - b);
  const q = (p: number) =>
    delays.length === 0 ? -1 : delays[Math.min(delays.length - 1, Math.floor(p * delays.length))]!;
  return {
    endNoticedAfterMs: Math.round(q(0.5)),
    endNoticedAfterMsP95: Math.round(q(0.95)),
    endsNoticed: delays.length,
    endsMissed: ended.length - delays.length,
  };
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Redis memory by key shape (ids and numbers as *), per live campaign: where the bytes a campaign costs go. */
async function printMemoryBreakdown(redis: Redis, live: number): Promise<void> {
  const byShape = new Map<string, { keys: number; bytes: number }>();
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "COUNT", 1000);
    cursor = next;
    for (const key of keys) {
      const shape = key.replace(/\{[^}]*[\d+-][^}]*\}/g, "{*}").replace(/\d+/g, "*");
      const bytes = Number((await redis.memory("USAGE", key, "SAMPLES", "0")) ?? 0);
      const e = byShape.get(shape) ?? { keys: 0, bytes: 0 };
      e.keys += 1;
      e.bytes += bytes;
      byShape.set(shape, e);
    }
  } while (cursor !== "0");
  const rows = [...byShape].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 15);
  console.error(`Redis memory by key shape, bytes per live campaign (${live}):`);
  for (const [shape, e] of rows)
    console.error(`  ${(e.bytes / live).toFixed(0).padStart(6)}  ${e.keys} keys  ${shape}`);
}

/** Two seconds of MONITOR: commands by shape (key ids as *), sent by a client or run by a script. */
async function monitorTwoSeconds(url: string): Promise<void> {
  const watcher = new Redis(url);
  const monitor = await watcher.monitor();
  const shapes = new Map<string, number>();
  monitor.on("monitor", (_time: string, args: string[], source: string) => {
    const from = source.startsWith("lua") ? "script" : "client";
    const key = (args[1] ?? "").replace(/\{[^}]*\}/g, "{*}").replace(/[0-9a-f]{16,}|\d+/g, "*");
    const shape = `${from} ${args[0]} ${args[0]?.toLowerCase() === "evalsha" ? "" : key}`;
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
  });
  await sleep(2_000);
  monitor.disconnect();
  watcher.disconnect();
  for (const [shape, n] of [...shapes].sort((a, b) => b[1] - a[1]).slice(0, 60))
    console.error(`${n}\t${shape}`);
}
