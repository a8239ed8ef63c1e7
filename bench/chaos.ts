/**
 * `npm run bench -- chaos [--files N] [--rows N] [--kill-at SHARE] [--base DIR] [--only ours|base] [--json]`:
 * a compiled `vcw start` importing N files (2 by default) of `rows` contacts each (1,000) dropped
 * at once, with a campaign per file, while the simulator fails on purpose (5xx before and after
 * applying a write, latency and jitter, a rate limit the worker is not told); the daemon is SIGKILLed
 * once mid-import (when `kill-at` of the contacts are in) and started again. Reported: the wall time
 * from the drop to all settled (every file in done/ and its campaign created), contacts/s, requests
 * sent, and correctness (duplicate contacts, campaigns per file, files in done/). The same with the
 * code tree in DIR (`--base`, compiled) on the same simulator, one after the other; ratios are ours /
 * base. Each run is bounded (4 minutes to settle).
 * With `--scenario late|gate|pause|all [--runs N] [--defaults]`, issue 28's timing scenarios instead
 * (chaos-scenarios.ts; `--defaults`: the default leases, locks and settle time).
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { DEMO_ASSISTANT, DEMO_DIALER } from "../src/simulator/demo-records.ts";
import type { FaultOptions } from "../src/simulator/faults.ts";
import { type Simulator, startSimulator } from "../src/simulator/server.ts";
import type { StoredContact } from "../src/simulator/store.ts";
import {
  reportScenarios,
  SCENARIOS,
  type Scenario,
  type ScenarioRun,
  scenarioRun,
} from "./chaos-scenarios.ts";
import { compiledCli, OURS, spawnDaemon, stopDaemon, untilRunning } from "./daemon-process.ts";
import { fmt, table } from "./lib.ts";

const KEY = "bench-key-0123456789";
const SETTLE_MS = 240_000;
/** After all settled: long enough for a late second campaign or contact to show. */
const QUIET_MS = 3_000;
const FAULTS: Partial<FaultOptions> = {
  latencyMs: 20,
  jitterMs: 30,
  errorRate: 0.03,
  commitThenFailRate: 0.02,
  commitThenFailMode: "mixed",
  rateLimit: 200,
};
/** Short locks, leases and timeouts, the same for both trees: a killed import is taken up in seconds. */
const DAEMON_ENV = {
  VCW_HTTP_ADDR: "off",
  VCW_STABLE_MS: "200",
  VCW_REQUEST_TIMEOUT_MS: "2000",
  VCW_MAX_RETRIES: "2",
  VCW_LEASE_MARGIN_MS: "1000",
  VCW_LOCK_MS: "5000",
  VCW_STALLED_INTERVAL_MS: "2000",
  VCW_MAX_STALLED: "100",
  VCW_IMPORT_BACKOFF_MS: "500",
};

interface ChaosOptions {
  files: number;
  rows: number;
  killAt: number;
}

export interface ChaosRun {
  label: string;
  settled: boolean;
  seconds: number;
  /** From the drop to the last file in done/ (the campaigns come after). */
  doneSeconds: number;
  contactsPerSec: number;
  requests: number;
  refused429: number;
  injected5xx: number;
  committedThenFailed: number;
  contactsAtKill: number;
  restartMs: number;
  /** Correctness: all must read 0 / files / files. */
  duplicateContacts: number;
  missingContacts: number;
  campaignsPerFile: number[];
  filesDone: number;
}

export async function run(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      files: { type: "string" },
      rows: { type: "string" },
      "kill-at": { type: "string" },
      base: { type: "string" },
      only: { type: "string" },
      json: { type: "boolean" },
      scenario: { type: "string" },
      runs: { type: "string" },
      defaults: { type: "boolean" },
    },
    strict: false,
  });
  const o: ChaosOptions = {
    files: Number(values.files ?? 2),
    rows: Number(values.rows ?? 1_000),
    killAt: Number(values["kill-at"] ?? 0.4),
  };
  const trees: { label: string; root: string }[] = [];
  if (values.only !== "base") trees.push({ label: "ours", root: OURS });
  if (values.base && values.only !== "ours") trees.push({ label: "base", root: String(values.base) });
  const sim = await startSimulator({ apiKey: KEY, demoRecords: true, seed: 18 });
  if (values.scenario) {
    try {
      await runScenarios(sim, trees, String(values.scenario), {
        runs: Number(values.runs ?? 5),
        defaults: Boolean(values.defaults),
        json: Boolean(values.json),
      });
    } finally {
      await sim.close();
    }
    return;
  }
  const runs: ChaosRun[] = [];
  try {
    for (const tree of trees) {
      const bin = compiledCli(tree.root);
      if (typeof bin !== "string") console.error(`${tree.label}: ${bin.missing}; not measured`);
      else runs.push(await chaosRun(sim, tree.label, tree.root, o));
    }
  } finally {
    await sim.close();
  }
  report(runs, o, Boolean(values.json));
}

/** Issue 28's scenarios, `runs` times each, the trees alternating within each round. */
async function runScenarios(
  sim: Simulator,
  trees: { label: string; root: string }[],
  which: string,
  o: { runs: number; defaults: boolean; json: boolean },
): Promise<void> {
  const { runs, defaults, json } = o;
  const scenarios = which === "all" ? SCENARIOS : [which as Scenario];
  if (!scenarios.every((s) => SCENARIOS.includes(s)))
    throw new Error(`--scenario must be ${SCENARIOS.join(", ")} or all, not "${which}"`);
  const measured = trees.filter((t) => typeof compiledCli(t.root) === "string");
  const results: ScenarioRun[] = [];
  for (const scenario of scenarios)
    for (let i = 0; i < runs; i++)
      for (const tree of measured) {
        const r = await scenarioRun(sim, KEY, tree, scenario, defaults);
        if (!json) console.error(`${scenario} #${i + 1} ${tree.label}: ${JSON.stringify(r)}`);
        results.push(r);
      }
  reportScenarios(results, json);
}

/** One tree: a fresh key space and folders, the files dropped, one SIGKILL, all settled. */
async function chaosRun(sim: Simulator, label: string, root: string, o: ChaosOptions): Promise<ChaosRun> {
  const home = mkdtempSync(join(tmpdir(), `vcw-bench-chaos-${label}-`));
  const tag = `${label}-${randomBytes(3).toString("hex")}`;
  const inbox = join(home, "inbox");
  const env = daemonEnv(sim, home, tag);
  const log = join(home, "daemon.log");
  let daemon = spawnDaemon(root, env, log);
  try {
    await untilRunning(daemon);
    sim.setFaults(FAULTS);
    sim.stats.reset();
    const contactsBefore = sim.store.list("contacts").length;
    const started = Date.now();
    const files = dropFiles(inbox, tag, o);
    const total = o.files * o.rows;
    const contactsAtKill = await untilContacts(sim, tag, Math.round(o.killAt * total));
    await stopDaemon(daemon, "SIGKILL");
    const restarted = Date.now();
    daemon = spawnDaemon(root, env, log);
    await untilRunning(daemon);
    const restartMs = Date.now() - restarted;
    const { settled, doneAt } = await untilSettled(sim, inbox, tag, files);
    const seconds = (Date.now() - started) / 1000;
    const requests = sim.stats.total;
    await sleep(QUIET_MS);
    return {
      label,
      settled,
      seconds,
      doneSeconds: (doneAt - started) / 1000,
      contactsPerSec: total / seconds,
      requests,
      refused429: sim.stats.count(429),
      injected5xx: sim.stats.count(500) + sim.stats.count(502) + sim.stats.count(503),
      committedThenFailed: sim.stats.committedThenFailed,
      contactsAtKill,
      restartMs,
      ...correctness(sim, contactsBefore, { inbox, tag, files, total }),
    };
  } finally {
    await stopDaemon(daemon, "SIGTERM");
    sim.setFaults({ latencyMs: 0, jitterMs: 0, errorRate: 0, commitThenFailRate: 0, rateLimit: 0 });
    if (!process.env.BENCH_KEEP) rmSync(home, { recursive: true, force: true });
  }
}

function daemonEnv(sim: Simulator, home: string, tag: string): Record<string, string> {
  const jobs = join(home, "jobs");
  mkdirSync(jobs, { recursive: true });
  writeFileSync(
    join(jobs, "chaos.yaml"),
    [
      "name: chaos",
      `inbox: ${join(home, "inbox")}`,
      `segment:\n  name: chaos-${tag}`,
      "contacts:\n  country: US",
      "import:\n  concurrency: 16",
      `campaign:\n  assistant: { id: ${DEMO_ASSISTANT.id} }\n  dialer: { id: ${DEMO_DIALER.id} }\n  name: "chaos-{file}"`,
      "",
    ].join("\n"),
  );
  return {
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    VCS_BASE_URL: sim.url,
    VCS_API_KEY: KEY,
    VCW_JOBS_DIR: jobs,
    VCW_HOME: join(home, ".vcw"),
    VCW_PREFIX: `vcw-bench-chaos-${tag}`,
    ...DAEMON_ENV,
  };
}

/** `files` CSVs of distinct valid contacts, written aside and renamed into the inbox. */
function dropFiles(inbox: string, tag: string, o: ChaosOptions): string[] {
  mkdirSync(inbox, { recursive: true });
  const first = 2_000_000 + Math.floor(Math.random() * 1_000) * 5_000;
  return Array.from({ length: o.files }, (_, f) => {
    const lines = ["Phone,First Name,Email"];
    for (let i = 0; i < o.rows; i++) {
      const n = first + f * o.rows + i;
      lines.push(`415${n},Contact ${n},c${n}@example.com`);
    }
    const name = `${tag}-${f}.csv`;
    writeFileSync(join(inbox, `.${name}.part`), `${lines.join("\n")}\n`);
    renameSync(join(inbox, `.${name}.part`), join(inbox, name));
    return name;
  });
}

const jobSegmentOf = (sim: Simulator, tag: string) =>
  sim.store.list("segments").find((s) => s.fields.name === `chaos-${tag}`);

/** Waits until the job's segment holds `count` contacts; returns how many it holds. */
async function untilContacts(sim: Simulator, tag: string, count: number): Promise<number> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const segment = jobSegmentOf(sim, tag);
    const now = segment ? sim.store.contactsOf(segment.id).length : 0;
    if (now >= count) return now;
    if (Date.now() > deadline) throw new Error(`only ${now} of ${count} contacts before the kill`);
    await sleep(20);
  }
}

/**
 * Every file in done/ and a campaign of each on the service (`settled`, false after SETTLE_MS);
 * `doneAt` when the last file reached done/.
 */
async function untilSettled(
  sim: Simulator,
  inbox: string,
  tag: string,
  files: string[],
): Promise<{ settled: boolean; doneAt: number }> {
  const deadline = Date.now() + SETTLE_MS;
  let doneAt = Number.NaN;
  while (Date.now() < deadline) {
    const allDone = doneFiles(inbox, files) === files.length;
    if (allDone && Number.isNaN(doneAt)) doneAt = Date.now();
    if (allDone && campaignsPerFile(sim, tag, files).every((c) => c >= 1)) return { settled: true, doneAt };
    await sleep(100);
  }
  return { settled: false, doneAt };
}

function doneFiles(inbox: string, files: string[]): number {
  const done = join(inbox, "done");
  if (!existsSync(done)) return 0;
  const names = readdirSync(done);
  return files.filter((f) => names.some((n) => n.endsWith(`-${f}.summary.json`))).length;
}

/** The service's campaigns named after each file ("chaos-{file}", the file hash appended). */
function campaignsPerFile(sim: Simulator, tag: string, files: string[]): number[] {
  const names = sim.store.list("campaigns").map((c) => String(c.fields.campaigns_name ?? ""));
  return files.map((f) => names.filter((n) => n.startsWith(`chaos-${f}`) && n.includes(tag)).length);
}

/**
 * Duplicates within any segment of this run (the job's, and each campaign's audience segment),
 * contacts missing from the job's segment, campaigns per file, files in done/.
 */
function correctness(
  sim: Simulator,
  contactsBefore: number,
  r: { inbox: string; tag: string; files: string[]; total: number },
) {
  const { inbox, tag, files, total } = r;
  const jobSegment = jobSegmentOf(sim, tag);
  const bySegment = new Map<string, string[]>();
  for (const c of sim.store.list<StoredContact>("contacts").slice(contactsBefore)) {
    const phones = bySegment.get(c.segmentId) ?? [];
    phones.push(String(c.fields.phone));
    bySegment.set(c.segmentId, phones);
  }
  let duplicateContacts = 0;
  for (const phones of bySegment.values()) duplicateContacts += phones.length - new Set(phones).size;
  const inJob = jobSegment ? new Set(bySegment.get(jobSegment.id)).size : 0;
  return {
    duplicateContacts,
    missingContacts: total - inJob,
    campaignsPerFile: campaignsPerFile(sim, tag, files),
    filesDone: doneFiles(inbox, files),
  };
}

function report(runs: ChaosRun[], o: ChaosOptions, json: boolean): void {
  const ours = runs.find((r) => r.label === "ours");
  const base = runs.find((r) => r.label === "base");
  const ratios =
    ours && base
      ? {
          seconds: ours.seconds / base.seconds,
          contactsPerSec: ours.contactsPerSec / base.contactsPerSec,
          requests: ours.requests / base.requests,
        }
      : undefined;
  const loadAverage = os.loadavg().map((l) => Math.round(l * 100) / 100);
  if (json) {
    console.log(JSON.stringify({ options: o, faults: FAULTS, runs, ratios, loadAverage }));
    return;
  }
  console.log(
    `${o.files} files of ${fmt(o.rows)} contacts dropped at once, a campaign per file; service faults ${JSON.stringify(FAULTS)}; the daemon SIGKILLed once at ${fmt(o.killAt * 100)}% of the contacts, started again; load average ${loadAverage.join(" ")}`,
  );
  table(
    runs.map((r) => ({
      tree: r.label,
      settled: r.settled ? "yes" : "NO (timed out)",
      "wall s": fmt(r.seconds, 1),
      "to done/ s": fmt(r.doneSeconds, 1),
      "contacts/s": fmt(r.contactsPerSec, 1),
      requests: fmt(r.requests),
      "429 / 5xx / applied-then-failed": `${r.refused429} / ${r.injected5xx} / ${r.committedThenFailed}`,
      "killed at contacts": fmt(r.contactsAtKill),
      "restart ms": fmt(r.restartMs),
    })),
  );
  table(
    runs.map((r) => ({
      tree: r.label,
      "duplicate contacts (must be 0)": r.duplicateContacts,
      "missing contacts (must be 0)": r.missingContacts,
      "campaigns per file (must be 1 each)": r.campaignsPerFile.join(","),
      [`files in done/ (must be ${o.files})`]: r.filesDone,
    })),
  );
  if (ratios)
    console.log(
      `ours / base: wall time ${fmt(ratios.seconds, 3)}, contacts/s ${fmt(ratios.contactsPerSec, 3)}, requests ${fmt(ratios.requests, 3)}`,
    );
}
