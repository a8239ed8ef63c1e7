/**
 * `npm run bench -- import [--rows N] [--schedule 0:200,30:100,60:200] [--only fixed|moving] [--base DIR]`:
 * the daemon (a compiled `vcw start` of this tree, in a process of its own) importing a dropped file
 * of 20,000 contacts into the simulator, which answers after 25 ms and refuses (429) beyond a rate
 * limit the worker is not told. Two runs: a fixed limit of 200 requests a second, and a limit that
 * moves (by default halved from second 30 to 60 of the import, then back). Reported per run:
 * contacts/s against the time-averaged limit, the share of requests answered 429, duplicates; and a
 * plain sequential import loop over 1,000 rows as a baseline. `--base DIR`: the same runs with the
 * compiled code tree in DIR, after ours, on the same simulator; ratios are ours / base. Also the
 * daemon's CPU time (user + system, from /proc) from the drop to the summary, per row, and the Redis
 * commands seen meanwhile (MONITOR) per row: round trips (commands sent by a client) and commands in
 * all (those a script runs too). Everyone's: run it against a private redis-server
 * (REDIS_URL=redis://127.0.0.1:PORT) for a count of the import's own. And the floor: the same
 * creates sent with `fetch` alone by a process of its own (import-floor-child.ts), its CPU a create
 * against the daemon's (what is above it is vcw's own work).
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { Redis } from "ioredis";
import { createClient } from "../src/api/index.ts";
import { DEFAULT_REDIS_URL } from "../src/config/settings.ts";
import { ContactFileReader } from "../src/ingest/reader.ts";
import { redisKeys } from "../src/lib/redis-keys.ts";
import type { ImportFileResult } from "../src/pipeline/import/import-file.ts";
import type { ImportSummary } from "../src/queue/import-processor.ts";
import { averageLimit, parseRateSchedule, type RateSchedule } from "../src/simulator/rate-schedule.ts";
import { type Simulator, startSimulator } from "../src/simulator/server.ts";
import { writeContactsCsv } from "./contacts-csv.ts";
import { compiledCli, forgetPrefix, OURS, spawnDaemon, stopDaemon, untilRunning } from "./daemon-process.ts";
import { cpuMsOf, fmt, table } from "./lib.ts";

const KEY = "bench-key-0123456789";
const LIMIT = 200;
const LATENCY_MS = 25;
const BASELINE_ROWS = 1_000;
const MOVING = "0:200,30:100,60:200";
const execFileAsync = promisify(execFile);

export async function run(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      rows: { type: "string" },
      schedule: { type: "string" },
      only: { type: "string" },
      base: { type: "string" },
    },
    strict: false,
  });
  const contacts = Number(values.rows ?? process.env.BENCH_IMPORT_ROWS ?? 20_000);
  const moving = parseRateSchedule(String(values.schedule ?? MOVING));
  const home = mkdtempSync(join(tmpdir(), "vcw-bench-import-"));
  const sim = await startSimulator({ apiKey: KEY, faults: { latencyMs: LATENCY_MS, rateLimit: LIMIT } });
  const csv = join(home, "contacts.csv");
  await writeContactsCsv(csv, contacts, 7);

  // Baseline: the obvious loop, one create after another, on the first 1,000 valid rows.
  const plain = createClient({ baseUrl: sim.url, apiKey: KEY });
  const baseSegment = (await plain.segments.create({ name: "baseline" })).id!;
  // The file's valid contacts, read once: the baseline's first 1,000 and the floor's every one.
  const valid = [];
  for await (const row of await ContactFileReader.open(csv, { defaultCountry: "US" }))
    if (row.kind === "valid") valid.push(row.contact);
  const baseStarted = performance.now();
  for (const contact of valid.slice(0, BASELINE_ROWS)) await plain.contacts.create(baseSegment, contact);
  const baselineRate = BASELINE_ROWS / ((performance.now() - baseStarted) / 1000);
  const floor = await importFloor(sim, valid, home);

  const trees = [{ label: "ours", root: OURS }];
  if (values.base) trees.push({ label: "base", root: String(values.base) });
  const runs: ImportRun[] = [];
  try {
    for (const tree of trees) {
      const bin = compiledCli(tree.root);
      if (typeof bin !== "string") {
        console.error(`${tree.label}: ${bin.missing}; not measured`);
        continue;
      }
      const at = { sim, home, csv, tree: tree.label, root: tree.root };
      if (values.only !== "moving") runs.push(await importRun(at, "fixed", [{ atSec: 0, perSecond: LIMIT }]));
      if (values.only !== "fixed") runs.push(await importRun(at, "moving", moving));
    }
  } finally {
    await sim.close();
    if (!process.env.BENCH_KEEP) rmSync(home, { recursive: true, force: true });
  }

  console.log(
    `${fmt(contacts)} rows dropped into the inbox; service: ${LATENCY_MS} ms latency, a rate limit unknown to the worker; sequential loop over the first 1,000 rows: ${fmt(baselineRate, 1)} contacts/s`,
  );
  console.log(
    `the floor (the creates alone: fetch, 16 at a time, paced at ${LIMIT}/s, no vcw code, a process of its own): ${fmt(floor.rows)} creates, ${fmt((1000 * floor.cpuMs) / floor.rows, 1)} µs of CPU a create, ${fmt(floor.refused)} answered 429`,
  );
  for (const r of runs) printRun(r, baselineRate, floor);
  printRatios(runs);
}

interface Floor {
  rows: number;
  cpuMs: number;
  seconds: number;
  refused: number;
}

/**
 * What the requests of an import cost with nothing of vcw: every valid row's create sent by a child
 * process with `fetch` (import-floor-child.ts), its CPU time over its rows. A daemon's CPU a row
 * cannot go below it: what is above is vcw's (reading, checks, Redis, the queue).
 */
async function importFloor(sim: Simulator, contacts: readonly object[], home: string): Promise<Floor> {
  const bodies = join(home, "floor-bodies.jsonl");
  writeFileSync(bodies, `${contacts.map((c) => JSON.stringify(c)).join("\n")}\n`);
  const plain = createClient({ baseUrl: sim.url, apiKey: KEY });
  const segment = (await plain.segments.create({ name: "bench-import-floor" })).id!;
  await sleep(1_100); // the service's bucket refills
  const child = fileURLToPath(new URL("./import-floor-child.js", import.meta.url));
  const { stdout } = await execFileAsync(
    process.execPath,
    [child, sim.url, KEY, segment, bodies, String(LIMIT)],
    {
      maxBuffer: 1 << 20,
    },
  );
  return JSON.parse(stdout.trim().split("\n").pop()!) as Floor;
}

function printRun(r: ImportRun, baselineRate: number, floor: Floor): void {
  const floorMs = (floor.cpuMs / floor.rows) * r.created;
  console.log(
    `\n${r.tree}, ${r.label} limit (${r.schedule.map((s) => `${s.atSec}:${s.perSecond}`).join(",")}, seconds:requests per second from the drop): ${fmt(r.valid)} valid rows in ${fmt(r.seconds, 1)} s`,
  );
  table([
    {
      measure: "contacts/s (drop to done/)",
      value: fmt(r.rate, 1),
      ratio: `${fmt(r.rate / r.averageLimit, 3)} of the time-averaged limit ${fmt(r.averageLimit, 1)} (goal >= 0.9)`,
    },
    {
      measure: "requests answered 429",
      value: `${fmt(r.refused)} of ${fmt(r.requests)}`,
      ratio: `${fmt((100 * r.refused) / r.requests, 2)}% (goal <= 2%)`,
    },
    { measure: "duplicates in the segment", value: fmt(r.duplicates), ratio: "must be 0" },
    {
      measure: "vs the sequential loop",
      value: "",
      ratio: `ours / baseline = ${fmt(r.rate / baselineRate, 2)}`,
    },
    {
      measure: "daemon CPU per row (drop to done/)",
      value: r.cpuMs === undefined ? "n/a" : `${fmt((1000 * r.cpuMs) / r.rows, 1)} µs`,
      ratio: r.cpuMs === undefined ? "no /proc" : `${fmt(r.cpuMs / 1000, 2)} s for ${fmt(r.rows)} rows`,
    },
    {
      measure: "daemon CPU vs the floor",
      value: r.cpuMs === undefined ? "n/a" : fmt(r.cpuMs / floorMs, 2),
      ratio: `the same ${fmt(r.created)} creates with fetch alone: ${fmt(floorMs / 1000, 2)} s`,
    },
    {
      measure: "Redis round trips per row (drop to done/)",
      value: fmt(r.roundTrips / r.rows, 2),
      ratio: `${fmt(r.roundTrips)} commands sent for ${fmt(r.rows)} rows (MONITOR; goal <= 2)`,
    },
    {
      measure: "Redis commands per row, scripts' included",
      value: fmt(r.redisCommands / r.rows, 2),
      ratio: `${fmt(r.redisCommands)} for ${fmt(r.rows)} rows (MONITOR)`,
    },
    {
      measure: "shared rate at the end",
      value: `${fmt(r.endRate, 1)} req/s`,
      ratio: `${r.cuts} decreases`,
    },
  ]);
}

/** Ours / base per limit: contacts/s (of the time-averaged limit) and requests sent. */
function printRatios(runs: ImportRun[]): void {
  for (const label of ["fixed", "moving"]) {
    const ours = runs.find((r) => r.tree === "ours" && r.label === label);
    const base = runs.find((r) => r.tree === "base" && r.label === label);
    if (!ours || !base) continue;
    if (ours.cpuMs !== undefined && base.cpuMs !== undefined)
      console.log(
        `ours / base, ${label} limit: daemon CPU per row ${fmt(ours.cpuMs / ours.rows / (base.cpuMs / base.rows), 3)}`,
      );
    console.log(
      `ours / base, ${label} limit: Redis round trips per row ${fmt(ours.roundTrips / ours.rows, 2)} / ${fmt(base.roundTrips / base.rows, 2)}, commands per row ${fmt(ours.redisCommands / ours.rows, 2)} / ${fmt(base.redisCommands / base.rows, 2)}`,
    );
    console.log(
      `ours / base, ${label} limit: contacts/s ${fmt(ours.rate / base.rate, 3)} (of the limit: ${fmt(ours.rate / ours.averageLimit, 3)} / ${fmt(base.rate / base.averageLimit, 3)}), requests ${fmt(ours.requests / base.requests, 3)}, 429s ${fmt(ours.refused, 0)} / ${fmt(base.refused, 0)}`,
    );
  }
}

interface ImportRun {
  /** ours, or base. */
  tree: string;
  label: string;
  schedule: RateSchedule;
  valid: number;
  /** Contacts the import created (the summary's). */
  created: number;
  seconds: number;
  rate: number;
  averageLimit: number;
  requests: number;
  refused: number;
  duplicates: number;
  endRate: number;
  cuts: number;
  /** Data rows of the file, and the daemon's CPU time (ms) while it imported them. */
  rows: number;
  cpuMs?: number | undefined;
  /** Commands Redis ran from the drop to the summary, and those sent by clients (everyone's: use a private Redis). */
  redisCommands: number;
  roundTrips: number;
}

/** Where an import runs: the shared simulator and file, and the code tree whose daemon imports. */
interface RunPlace {
  sim: Simulator;
  home: string;
  csv: string;
  tree: string;
  root: string;
}

/** One import by a fresh daemon (its own prefix: nothing learnt from the last run), a segment of its own. */
async function importRun(at: RunPlace, label: string, schedule: RateSchedule): Promise<ImportRun> {
  const { sim, home } = at;
  const name = `${at.tree}-${label}`;
  const inbox = join(home, `inbox-${name}`);
  const jobs = join(home, `jobs-${name}`);
  mkdirSync(jobs);
  writeFileSync(
    join(jobs, "bench.yaml"),
    `name: bench\ninbox: ${inbox}\nsegment:\n  name: bench-import-${name}\ncontacts:\n  country: US\nimport:\n  concurrency: 16\n`,
  );
  const prefix = `vcw-bench-${randomBytes(4).toString("hex")}`;
  const redisUrl = process.env.REDIS_URL;
  const daemon = spawnDaemon(
    at.root,
    {
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
      VCS_BASE_URL: sim.url,
      VCS_API_KEY: KEY,
      VCW_JOBS_DIR: jobs,
      VCW_HOME: join(home, `.vcw-${name}`),
      VCW_PREFIX: prefix,
      VCW_STABLE_MS: "200",
      VCW_HTTP_ADDR: "off", // a daemon of the developer's may have 127.0.0.1:9400
    },
    join(home, `daemon-${name}.log`),
  );
  try {
    await untilRunning(daemon);
    return await measureImport(at, {
      pid: daemon.child.pid,
      label,
      schedule,
      inbox,
      prefix,
      redisUrl: redisUrl ?? DEFAULT_REDIS_URL,
    });
  } finally {
    await stopDaemon(daemon, "SIGTERM");
    await forgetPrefix(redisUrl ?? DEFAULT_REDIS_URL, prefix);
  }
}

/** Drops the file, waits for its summary in done/, reads what the service and the limiter saw. */
async function measureImport(
  at: RunPlace,
  r: {
    pid: number | undefined;
    label: string;
    schedule: RateSchedule;
    inbox: string;
    prefix: string;
    redisUrl: string;
  },
): Promise<ImportRun> {
  const { sim, csv } = at;
  const { inbox, schedule } = r;
  await sleep(1_100); // the service's bucket refills
  sim.stats.reset();
  // The schedule counts from now: the moment the file is dropped.
  sim.setFaults({ rateLimitSchedule: schedule });
  const scheduleStart = sim.rateLimitScheduleStartedAt;
  const started = Date.now();
  const cpuBefore = cpuMsOf(r.pid);
  const counter = await countCommands(r.redisUrl);
  mkdirSync(inbox, { recursive: true });
  writeFileSync(join(inbox, ".contacts.csv.part"), readFileSync(csv));
  renameSync(join(inbox, ".contacts.csv.part"), join(inbox, "contacts.csv"));
  const summary = await untilSummary(inbox);
  const ended = Date.now();
  const cpuAfter = cpuMsOf(r.pid);
  const commands = counter.stop();
  const seconds = (ended - started) / 1000;
  const limiter = await limiterState(r.redisUrl, r.prefix);
  const requests = sim.stats.total;
  const refused = sim.stats.count(429);
  const plain = createClient({ baseUrl: sim.url, apiKey: KEY });
  sim.setFaults({ rateLimit: 0 }); // listing the segment is not part of the run
  const listed = await plain.contacts.list(summary.segment!.id);
  sim.setFaults({ rateLimit: LIMIT });
  return {
    tree: at.tree,
    label: r.label,
    schedule,
    valid: summary.totals.valid,
    created: summary.created,
    seconds,
    rate: summary.created / seconds,
    averageLimit: averageLimit(schedule, (started - scheduleStart) / 1000, (ended - scheduleStart) / 1000),
    requests,
    refused,
    duplicates: listed.length - new Set(listed.map((c) => c.phone)).size,
    endRate: limiter.rate ?? 0,
    cuts: limiter.cuts,
    rows: summary.totals.total,
    cpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
    redisCommands: commands.all,
    roundTrips: commands.sent,
  };
}

/** The file's summary once it is in done/ (bounded: 10 minutes). */
export async function untilSummary(inbox: string): Promise<ImportSummary & ImportFileResult> {
  const deadline = Date.now() + 600_000;
  const done = join(inbox, "done");
  while (Date.now() < deadline) {
    await sleep(100);
    const name = existsSync(done) ? readdirSync(done).find((f) => f.endsWith(".summary.json")) : undefined;
    if (name) return JSON.parse(readFileSync(join(done, name), "utf8"));
  }
  throw new Error(`no summary in ${done} after 10 minutes`);
}

/** The shared rate the daemon left in Redis, and its decreases (any tree: the same hash). */
async function limiterState(redisUrl: string, prefix: string): Promise<{ rate?: number; cuts: number }> {
  const redis = new Redis(redisUrl, { lazyConnect: true });
  try {
    const [rate, cuts] = await redis.hmget(redisKeys(prefix).limiter, "rate", "cuts");
    return { ...(rate === null ? {} : { rate: Number(rate) }), cuts: Number(cuts ?? 0) };
  } finally {
    redis.disconnect();
  }
}

/** Counts the commands Redis runs until `stop`: all, and those clients sent (not a script's). */
async function countCommands(redisUrl: string): Promise<{ stop(): { all: number; sent: number } }> {
  const redis = new Redis(redisUrl, { lazyConnect: true });
  const monitor = await redis.monitor();
  let all = 0;
  let sent = 0;
  monitor.on("monitor", (_time: string, _args: string[], source: string) => {
    all += 1;
    if (source !== "lua") sent += 1;
  });
  return {
    stop() {
      monitor.disconnect();
      redis.disconnect();
      return { all, sent };
    },
  };
}
