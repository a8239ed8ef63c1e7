/**
 * `npm run bench -- chaos --scenario late|gate|pause|all [--runs N] [--base DIR] [--defaults] [--json]`:
 * issue 28's timing scenarios on compiled daemons (this tree, then `--base`'s), each run `runs` times (5):
 * - late: the service answers after the client's timeout (latency 100 ms + up to 2.5 s, timeout 1 s), 600 phones;
 * - gate: two files of one job holding the same 100 phones, the service limited to 4 requests/s, VCW_RATE_LIMIT=30;
 * - pause: `vcw start` + `vcw worker`, the first SIGSTOPped 8 s (past its lease) mid-import, 600 phones.
 * Reported per tree: duplicate contacts on the service (must be 0), missing ones, the time from the
 * drop to the first contact created and to every file in done/ (the settle time's cost).
 * Short leases and locks by default; with `--defaults`, the default lease, lock, settle time and stall
 * check (only the scenario's own settings stay), the pause 80 s, each run bounded by 8 minutes.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { FaultOptions } from "../src/simulator/faults.ts";
import type { Simulator } from "../src/simulator/server.ts";
import { type DaemonProcess, spawnDaemon, stopDaemon, untilRunning } from "./daemon-process.ts";
import { fmt, median, table } from "./lib.ts";

export type Scenario = "late" | "gate" | "pause";
export const SCENARIOS: Scenario[] = ["late", "gate", "pause"];

interface Plan {
  faults: Partial<FaultOptions>;
  /** The scenario's own settings, kept with `--defaults`. */
  env: Record<string, string>;
  /** Each file's phones (indexes from the run's first phone); two files may share them. */
  files: number[][];
  pause?: { atContacts: number; ms: number; defaultsMs: number };
}

const PLANS: Record<Scenario, Plan> = {
  late: {
    faults: { latencyMs: 100, jitterMs: 2_500 },
    // Lists time out too: the default retries and more attempts, as an operator facing this service would set.
    // A fixed limit: timeouts would drive the moving one down to 1 request/s.
    env: {
      VCW_REQUEST_TIMEOUT_MS: "1000",
      VCW_RATE_LIMIT: "200",
      VCW_MAX_RETRIES: "2",
      VCW_IMPORT_ATTEMPTS: "10",
    },
    files: [range(600)],
  },
  gate: {
    faults: { rateLimit: 4 },
    env: { VCW_RATE_LIMIT: "30" },
    files: [range(100), range(100).reverse()],
  },
  pause: {
    faults: { latencyMs: 20, jitterMs: 20 },
    env: { VCW_RATE_LIMIT: "100" },
    files: [range(600)],
    // Past the lease and lock: 2.5 s and 1 s short, 45 s and 30 s by default.
    pause: { atContacts: 120, ms: 8_000, defaultsMs: 80_000 },
  },
};

/** Settings that change no timing of the protocol: kept with `--defaults`. */
const NEUTRAL_ENV = { VCW_HTTP_ADDR: "off" };
/** Short leases and locks for both trees; the settle time (ours only) covers the slowest answer. */
const SHORT_ENV = {
  VCW_STABLE_MS: "100",
  VCW_REQUEST_TIMEOUT_MS: "1000",
  VCW_MAX_RETRIES: "1",
  VCW_LEASE_MARGIN_MS: "500",
  VCW_SETTLE_MS: "4000",
  VCW_LOCK_MS: "1000",
  VCW_STALLED_INTERVAL_MS: "500",
  VCW_MAX_STALLED: "100",
  VCW_IMPORT_BACKOFF_MS: "200",
  VCW_RESCAN_MS: "1000",
};
const BOUND_MS = 150_000;
const DEFAULTS_BOUND_MS = 480_000;

export interface ScenarioRun {
  tree: string;
  scenario: Scenario;
  defaults: boolean;
  settled: boolean;
  duplicates: number;
  missing: number;
  firstCreateS: number;
  doneS: number;
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/** One run of `scenario` on `root`'s daemons: its own key space, folders and segment. */
export async function scenarioRun(
  sim: Simulator,
  key: string,
  tree: { label: string; root: string },
  scenario: Scenario,
  defaults = false,
): Promise<ScenarioRun> {
  const plan = PLANS[scenario];
  const bound = defaults ? DEFAULTS_BOUND_MS : BOUND_MS;
  const home = mkdtempSync(join(tmpdir(), `vcw-bench-${scenario}-${tree.label}-`));
  const segmentId = sim.store.add("segments", {
    id: sim.store.newId("segments"),
    fields: { name: `bench-${scenario}-${randomBytes(3).toString("hex")}`, description: "" },
  }).id;
  const env = { ...envOf(sim, key, home, segmentId), ...(defaults ? {} : SHORT_ENV), ...plan.env };
  const log = join(home, "daemon.log");
  const daemons: DaemonProcess[] = [spawnDaemon(tree.root, env, log)];
  if (plan.pause) daemons.push(spawnDaemon(tree.root, env, log, "worker"));
  try {
    await untilRunning(daemons[0]!);
    sim.setFaults(plan.faults);
    const first = 3_000_000 + Math.floor(Math.random() * 1_000) * 1_000;
    const started = Date.now();
    const names = plan.files.map((phones, f) => dropFile(join(home, "inbox"), `f${f}.csv`, phones, first));
    const firstCreate = untilCount(sim, segmentId, 1, bound);
    if (plan.pause) {
      await untilCount(sim, segmentId, plan.pause.atContacts, bound);
      daemons[0]!.child.kill("SIGSTOP");
      await sleep(defaults ? plan.pause.defaultsMs : plan.pause.ms);
      daemons[0]!.child.kill("SIGCONT");
    }
    const firstAt = await firstCreate;
    const doneAt = await untilDone(join(home, "inbox"), names, started + bound);
    await sleep(2_000); // a late create would show now
    const phones = sim.store.contactsOf(segmentId).map((c) => String(c.fields.phone));
    const expected = new Set(plan.files.flat()).size;
    return {
      tree: tree.label,
      scenario,
      defaults,
      settled: doneAt !== undefined,
      duplicates: phones.length - new Set(phones).size,
      missing: expected - new Set(phones).size,
      firstCreateS: (firstAt - started) / 1000,
      doneS: ((doneAt ?? Date.now()) - started) / 1000,
    };
  } finally {
    for (const d of daemons) {
      d.child.kill("SIGCONT");
      await stopDaemon(d, "SIGKILL");
    }
    sim.setFaults({ latencyMs: 0, jitterMs: 0, rateLimit: 0 });
    if (!process.env.BENCH_KEEP) rmSync(home, { recursive: true, force: true });
  }
}

function envOf(sim: Simulator, key: string, home: string, segmentId: string): Record<string, string> {
  const jobs = join(home, "jobs");
  mkdirSync(jobs, { recursive: true });
  writeFileSync(
    join(jobs, "timing.yaml"),
    `name: timing\ninbox: ${join(home, "inbox")}\nsegment:\n  id: ${segmentId}\ncontacts:\n  country: US\nimport:\n  concurrency: 32\n`,
  );
  return {
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    VCS_BASE_URL: sim.url,
    VCS_API_KEY: key,
    VCW_JOBS_DIR: jobs,
    VCW_HOME: join(home, ".vcw"),
    VCW_PREFIX: `vcw-bench-timing-${randomBytes(4).toString("hex")}`,
    ...NEUTRAL_ENV,
  };
}

function dropFile(inbox: string, name: string, phones: number[], first: number): string {
  mkdirSync(inbox, { recursive: true });
  const lines = ["Phone,First Name", ...phones.map((i) => `415${first + i},Contact ${i}`)];
  writeFileSync(join(inbox, `.${name}.part`), `${lines.join("\n")}\n`);
  renameSync(join(inbox, `.${name}.part`), join(inbox, name));
  return name;
}

async function untilCount(sim: Simulator, segmentId: string, n: number, bound: number): Promise<number> {
  const deadline = Date.now() + bound;
  while (sim.store.contactsOf(segmentId).length < n && Date.now() < deadline) await sleep(10);
  return Date.now();
}

/** When every file's summary is in done/; undefined past `deadline`. */
async function untilDone(inbox: string, names: string[], deadline: number): Promise<number | undefined> {
  const done = join(inbox, "done");
  while (Date.now() < deadline) {
    const there = existsSync(done) ? readdirSync(done) : [];
    if (names.every((n) => there.some((f) => f.endsWith(`-${n}.summary.json`)))) return Date.now();
    await sleep(100);
  }
  return undefined;
}

/** Per scenario and tree: duplicates of every run, medians of the times, ours / base. */
export function reportScenarios(runs: ScenarioRun[], json: boolean): void {
  if (json) {
    console.log(JSON.stringify({ runs }));
    return;
  }
  const rows: Record<string, string | number>[] = [];
  for (const scenario of SCENARIOS)
    for (const tree of ["ours", "base"]) {
      const mine = runs.filter((r) => r.scenario === scenario && r.tree === tree);
      if (mine.length === 0) continue;
      rows.push({
        scenario: mine[0]!.defaults ? `${scenario} (defaults)` : scenario,
        tree,
        runs: mine.length,
        "settled (all)": mine.every((r) => r.settled) ? "yes" : "NO",
        "duplicates per run (ours must be 0)": mine.map((r) => r.duplicates).join(","),
        "missing per run": mine.map((r) => r.missing).join(","),
        "drop → first create s (median)": fmt(median(mine.map((r) => r.firstCreateS)), 2),
        "drop → done/ s (median)": fmt(median(mine.map((r) => r.doneS)), 1),
      });
    }
  table(rows);
}
