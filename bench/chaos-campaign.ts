/**
 * `npm run bench -- chaos-campaign [--runs N] [--rows N] [--base DIR] [--defaults] [--json]` (issue 28, scenario 4):
 * 1. Time from the drop to the first call: one compiled `vcw start`, one file; ours with the default
 *    settle time (VCW_SETTLE_MS 60 s) and with 0, and the base tree (`--base`, compiled), which has none.
 * 2. Duplicates, `runs` times (5): two daemons of ours; the one that takes the file's campaign stops
 *    itself right before its create (VCW_FAILPOINTS=campaign.before-create=stop@1), the other takes the
 *    job over once its lease lapsed, then the first is resumed (SIGCONT) and sends its late create.
 *    Counted on the simulator: campaigns of the file, and people with more than one audience entry
 *    (must be 0). The base tree has no fault point to stop at that moment: the issue's table records
 *    what it does there (2 campaigns, everyone called twice).
 * Each run is bounded (3 minutes). With `--defaults`: the default lease (45 s), job lock (30 s), stall
 * check and settle time (60 s) for every daemon, ours only (first call with the default settle, then
 * the paused-create runs), each bounded by 7 minutes.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { DEMO_ASSISTANT, DEMO_DIALER } from "../src/simulator/demo-records.ts";
import { type Simulator, startSimulator } from "../src/simulator/server.ts";
import type { StoredCampaign } from "../src/simulator/store.ts";
import {
  compiledCli,
  type DaemonProcess,
  OURS,
  spawnDaemon,
  stopDaemon,
  untilRunning,
} from "./daemon-process.ts";
import { fmt, table } from "./lib.ts";

const KEY = "bench-key-0123456789";
let BOUND_MS = 180_000;
/** Settings that change no timing of the protocol: all `--defaults` sets. */
const NEUTRAL_ENV = { VCW_HTTP_ADDR: "off" };
/** Short leases (about 2.5 s), the same for every tree: a stopped daemon's job is taken over in seconds. */
const SHORT_ENV = {
  VCW_STABLE_MS: "100",
  VCW_REQUEST_TIMEOUT_MS: "1000",
  VCW_MAX_RETRIES: "1",
  VCW_LEASE_MARGIN_MS: "500",
  VCW_LOCK_MS: "1000",
  VCW_STALLED_INTERVAL_MS: "500",
  VCW_MAX_STALLED: "100",
};

interface FirstCall {
  label: string;
  settleMs: number | "none";
  seconds: number;
}

interface PauseRun {
  run: number;
  campaigns: number;
  calledTwice: number;
  people: number;
  seconds: number;
}

export async function run(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      runs: { type: "string" },
      rows: { type: "string" },
      base: { type: "string" },
      json: { type: "boolean" },
      defaults: { type: "boolean" },
    },
    strict: false,
  });
  const runs = Number(values.runs ?? 5);
  const defaults = Boolean(values.defaults);
  if (defaults) BOUND_MS = 420_000;
  const rows = Number(values.rows ?? 20);
  const sim = await startSimulator({ apiKey: KEY, demoRecords: true, seed: 28 });
  const firstCalls: FirstCall[] = [];
  const pauses: PauseRun[] = [];
  try {
    if (typeof compiledCli(OURS) !== "string") throw new Error(`no compiled tree at ${OURS} (npm run build)`);
    for (const settleMs of defaults ? [undefined] : [60_000, 0])
      firstCalls.push({
        label: "ours",
        settleMs: settleMs ?? 60_000,
        seconds: await dropToFirstCall(sim, OURS, rows, {
          defaults,
          ...(settleMs === undefined ? {} : { settleMs }),
        }),
      });
    const base = values.base && !defaults ? String(values.base) : undefined;
    if (base && typeof compiledCli(base) === "string")
      firstCalls.push({
        label: "base",
        settleMs: "none",
        seconds: await dropToFirstCall(sim, base, rows, {}),
      });
    else if (base) console.error(`base: no compiled tree at ${base}/dist; not measured`);
    for (let i = 1; i <= runs; i++)
      pauses.push({ run: i, ...(await pausedBeforeCreate(sim, rows, defaults)) });
  } finally {
    await sim.close();
  }
  report(firstCalls, pauses, rows, Boolean(values.json));
}

/** A fresh job and key space for one run: its folders, and the daemon's environment. */
function freshJob(sim: Simulator, extra: Record<string, string>, defaults = false) {
  const home = mkdtempSync(join(tmpdir(), "vcw-bench-cc-"));
  const tag = randomBytes(3).toString("hex");
  const jobs = join(home, "jobs");
  mkdirSync(jobs, { recursive: true });
  writeFileSync(
    join(jobs, "cc.yaml"),
    [
      "name: cc",
      `inbox: ${join(home, "inbox")}`,
      `segment:\n  name: cc-${tag}`,
      "contacts:\n  country: US",
      `campaign:\n  assistant: { id: ${DEMO_ASSISTANT.id} }\n  dialer: { id: ${DEMO_DIALER.id} }\n  name: "cc-${tag}-{file}"`,
      "",
    ].join("\n"),
  );
  const env = {
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    VCS_BASE_URL: sim.url,
    VCS_API_KEY: KEY,
    VCW_JOBS_DIR: jobs,
    VCW_HOME: join(home, ".vcw"),
    VCW_PREFIX: `vcw-bench-cc-${tag}`,
    ...NEUTRAL_ENV,
    ...(defaults ? {} : SHORT_ENV),
    ...extra,
  };
  const drop = (rows: number) => {
    const inbox = join(home, "inbox");
    mkdirSync(inbox, { recursive: true });
    const first = 3_000_000 + Math.floor(Math.random() * 1_000) * 1_000;
    const lines = ["Phone,First Name"];
    for (let i = 0; i < rows; i++) lines.push(`415${first + i},Contact ${i}`);
    writeFileSync(join(inbox, ".f.csv.part"), `${lines.join("\n")}\n`);
    renameSync(join(inbox, ".f.csv.part"), join(inbox, `${tag}.csv`));
  };
  return { home, tag, env, drop, log: join(home, "daemon.log") };
}

/** The simulator's campaigns of a run (named after its tag). */
const campaignsOf = (sim: Simulator, tag: string) =>
  sim.store
    .list<StoredCampaign>("campaigns")
    .filter((c) => String(c.fields.campaigns_name ?? "").startsWith(`cc-${tag}-`));

/** Seconds from the drop to the first dial of the file's people (a call planned at or before now). */
async function dropToFirstCall(
  sim: Simulator,
  root: string,
  rows: number,
  o: { settleMs?: number; defaults?: boolean },
): Promise<number> {
  const job = freshJob(
    sim,
    o.settleMs === undefined ? {} : { VCW_SETTLE_MS: String(o.settleMs) },
    o.defaults,
  );
  const daemon = spawnDaemon(root, job.env, job.log);
  try {
    await untilRunning(daemon);
    const started = Date.now();
    job.drop(rows);
    const deadline = started + BOUND_MS;
    while (Date.now() < deadline) {
      await listThroughApi(sim);
      const dials = campaignsOf(sim, job.tag).flatMap((c) => (c.audience ?? []).map((m) => m.plan.dialAt));
      const first = Math.min(...dials);
      if (dials.length > 0 && first <= sim.clock.now()) return (first - started) / 1000;
      await sleep(100);
    }
    throw new Error(`no call within ${BOUND_MS / 1000} s; see ${job.log}`);
  } finally {
    await stopDaemon(daemon, "SIGTERM");
    if (!process.env.BENCH_KEEP) rmSync(job.home, { recursive: true, force: true });
  }
}

/** Whether a process is stopped (SIGSTOP): its state in /proc is `T`. */
const isStopped = (pid: number) => /^\d+ \(.*\) T /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));

/** Scenario 4 on ours: one daemon stopped right before the campaign's create, another takes over, the first resumed. */
async function pausedBeforeCreate(
  sim: Simulator,
  rows: number,
  defaults: boolean,
): Promise<Omit<PauseRun, "run">> {
  const settleMs = defaults ? 60_000 : 12_000;
  const job = freshJob(sim, defaults ? {} : { VCW_SETTLE_MS: String(settleMs) }, defaults);
  const daemons: DaemonProcess[] = [];
  const started = Date.now();
  try {
    const paused = spawnDaemon(
      OURS,
      { ...job.env, VCW_FAILPOINTS: "campaign.before-create=stop@1" },
      job.log,
    );
    daemons.push(paused);
    await untilRunning(paused);
    job.drop(rows);
    await until(() => isStopped(paused.child.pid!), "the pause before the create");
    daemons.push(spawnDaemon(OURS, job.env, job.log));
    await until(() => campaignsOf(sim, job.tag).length >= 1, "the other daemon's campaign");
    paused.child.kill("SIGCONT");
    // Past the settle time of any campaign made now (the repair's), every campaign of the file started.
    await sleep(settleMs + 4_000);
    await until(async () => {
      await listThroughApi(sim);
      return campaignsOf(sim, job.tag).every((c) => c.audience !== undefined);
    }, "every campaign of the file started");
    const entries = new Map<string, number>();
    for (const c of campaignsOf(sim, job.tag))
      for (const m of c.audience ?? []) entries.set(m.contact.phone, (entries.get(m.contact.phone) ?? 0) + 1);
    return {
      campaigns: campaignsOf(sim, job.tag).length,
      calledTwice: [...entries.values()].filter((n) => n > 1).length,
      people: entries.size,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    for (const d of daemons) d.child.kill("SIGCONT");
    for (const d of daemons) await stopDaemon(d, "SIGTERM");
    if (!process.env.BENCH_KEEP) rmSync(job.home, { recursive: true, force: true });
  }
}

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + BOUND_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** A read through the service's API: the simulator starts the campaigns that are due when it is asked. */
async function listThroughApi(sim: Simulator): Promise<void> {
  await fetch(`${sim.url}/campaign/list`, { headers: { "x-api-key": KEY } });
}

function report(firstCalls: FirstCall[], pauses: PauseRun[], rows: number, json: boolean): void {
  const loadAverage = os.loadavg().map((l) => Math.round(l * 100) / 100);
  if (json) {
    console.log(JSON.stringify({ rows, firstCalls, pauses, loadAverage }));
    return;
  }
  console.log(`one file of ${rows} contacts; load average ${loadAverage.join(" ")}`);
  table(
    firstCalls.map((f) => ({
      tree: f.label,
      VCW_SETTLE_MS: String(f.settleMs),
      "drop to first call s": fmt(f.seconds, 1),
    })),
  );
  const base = firstCalls.find((f) => f.label === "base");
  if (base)
    console.log(
      `drop to first call, ours / base: ${firstCalls
        .filter((f) => f.label === "ours")
        .map((f) => `settle ${f.settleMs}: ${fmt(f.seconds / base.seconds, 2)}`)
        .join(", ")}`,
    );
  table(
    pauses.map((p) => ({
      run: p.run,
      "campaigns of the file": p.campaigns,
      "people called": p.people,
      "people called twice (must be 0)": p.calledTwice,
      "wall s": fmt(p.seconds, 1),
    })),
  );
}
