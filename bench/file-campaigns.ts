/**
 * `npm run bench -- file-campaigns [--rows N] [--base DIR]`: the whole walk of a dropped file, not
 * just its import. The daemon (a compiled `vcw start` of this tree, in a process of its own) imports
 * a file of US contacts in six area codes of different time zones into the simulator (25 ms latency, 200 requests
 * a second), plans it with the callees' own hours (`timezone: callee`, no `calling:` section: the
 * example job's shape) and files each zone's contacts into a campaign of its own. Measured from the
 * drop until every valid row is in a campaign's segment: the daemon's CPU time (user + system, from
 * /proc) per row, the seconds, the campaigns, and duplicates (a phone twice in one campaign's
 * segment, or in two campaigns). `--base DIR`: the same run with the compiled code tree in DIR, on
 * the same simulator; ratios are ours / base. This is where reading a file once shows: the import
 * bench's job has no campaigns, so it never plans.
 */
import { randomBytes } from "node:crypto";
import {
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { DEFAULT_REDIS_URL } from "../src/config/settings.ts";
import { type Simulator, startSimulator } from "../src/simulator/server.ts";
import type { StoredCampaign } from "../src/simulator/store.ts";
import { compiledCli, forgetPrefix, OURS, spawnDaemon, stopDaemon, untilRunning } from "./daemon-process.ts";
import { untilSummary } from "./import.ts";
import { cpuMsOf, fmt, table } from "./lib.ts";

const KEY = "bench-key-0123456789";
const LIMIT = 200;
const LATENCY_MS = 25;
/** New York, Chicago, Denver, San Francisco, Anchorage, Honolulu: a campaign per zone the planner finds. */
const AREAS = ["212", "312", "303", "415", "907", "808"];
const WAIT_MS = 300_000;

interface FileRun {
  tree: string;
  valid: number;
  seconds: number;
  cpuMs: number | undefined;
  campaigns: number;
  filed: number;
  duplicates: number;
}

export async function run(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { rows: { type: "string" }, base: { type: "string" } },
    strict: false,
  });
  const rows = Number(values.rows ?? 3_000);
  const home = mkdtempSync(join(tmpdir(), "vcw-bench-file-campaigns-"));
  const sim = await startSimulator({
    apiKey: KEY,
    demoRecords: true,
    faults: { latencyMs: LATENCY_MS, rateLimit: LIMIT },
  });
  const csv = join(home, "contacts.csv");
  await writeZonedCsv(csv, rows);
  const trees = [{ label: "ours", root: OURS }];
  if (values.base) trees.push({ label: "base", root: String(values.base) });
  const runs: FileRun[] = [];
  try {
    for (const tree of trees) {
      if (typeof compiledCli(tree.root) !== "string") {
        console.error(
          `${tree.label}: no compiled tree at ${tree.root}/dist (run npm run build there); not measured`,
        );
        continue;
      }
      runs.push(await fileRun(sim, home, csv, tree.label, tree.root));
    }
  } finally {
    await sim.close();
    if (!process.env.BENCH_KEEP) rmSync(home, { recursive: true, force: true });
  }
  console.log(
    `${fmt(rows)} rows in six US area codes of different zones dropped into the inbox; service: ${LATENCY_MS} ms latency, ${LIMIT} requests/s; measured from the drop until every valid row is in its campaign's segment`,
  );
  const ours = runs.find((r) => r.tree === "ours");
  const base = runs.find((r) => r.tree === "base");
  const ratio = (of: (r: FileRun) => number | undefined) => {
    const a = ours && of(ours);
    const b = base && of(base);
    return a !== undefined && b !== undefined && b > 0 ? fmt(a / b, 3) : "";
  };
  const cpuPerRow = (r: FileRun) => (r.cpuMs === undefined ? undefined : (1000 * r.cpuMs) / r.valid);
  const measures: [string, (r: FileRun) => number | undefined, (v: number) => string][] = [
    ["daemon CPU per row (µs)", cpuPerRow, (v) => fmt(v, 1)],
    ["seconds, drop to filed", (r) => r.seconds, (v) => fmt(v, 1)],
    ["campaigns", (r) => r.campaigns, (v) => fmt(v)],
    ["rows filed in campaigns", (r) => r.filed, (v) => fmt(v)],
    ["duplicates (must be 0)", (r) => r.duplicates, (v) => fmt(v)],
  ];
  table(
    measures.map(([measure, of, show]) => ({
      measure,
      ours: ours && of(ours) !== undefined ? show(of(ours)!) : "",
      base: base && of(base) !== undefined ? show(of(base)!) : "",
      "ours / base": ratio(of),
    })),
  );
}

/** US numbers in mixed spellings, spread evenly over AREAS; deterministic. */
async function writeZonedCsv(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  out.write("First Name,Last Name,Phone Number\n");
  for (let i = 0; i < rows; i++) {
    const area = AREAS[i % AREAS.length]!;
    const exchange = 200 + (Math.floor(i / AREAS.length / 10_000) % 700);
    const line = String(Math.floor(i / AREAS.length) % 10_000).padStart(4, "0");
    const phone = i % 2 === 0 ? `+1${area}${exchange}${line}` : `(${area}) ${exchange}-${line}`;
    if (!out.write(`Ana,Row${i},"${phone}"\n`)) await new Promise<void>((r) => out.once("drain", () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
}

/** One file by a fresh daemon of `root` (its own prefix and segment), from its drop to its campaigns filled. */
async function fileRun(
  sim: Simulator,
  home: string,
  csv: string,
  tree: string,
  root: string,
): Promise<FileRun> {
  const inbox = join(home, `inbox-${tree}`);
  const jobs = join(home, `jobs-${tree}`);
  mkdirSync(jobs);
  const job = `bench${tree}`;
  writeFileSync(join(jobs, "bench.yaml"), jobYaml(job, inbox));
  const redisUrl = process.env.REDIS_URL;
  const prefix = `vcw-bench-${randomBytes(4).toString("hex")}`;
  const daemon = spawnDaemon(
    root,
    {
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
      VCS_BASE_URL: sim.url,
      VCS_API_KEY: KEY,
      VCW_JOBS_DIR: jobs,
      VCW_HOME: join(home, `.vcw-${tree}`),
      VCW_PREFIX: prefix,
      VCW_STABLE_MS: "200",
      VCW_HTTP_ADDR: "off",
    },
    join(home, `daemon-${tree}.log`),
  );
  try {
    await untilRunning(daemon);
    await sleep(1_100); // the service's bucket refills
    const pid = daemon.child.pid;
    const started = Date.now();
    const cpuBefore = cpuMsOf(pid);
    mkdirSync(inbox, { recursive: true });
    writeFileSync(join(inbox, ".contacts.csv.part"), readFileSync(csv));
    renameSync(join(inbox, ".contacts.csv.part"), join(inbox, "contacts.csv"));
    const summary = await untilSummary(inbox);
    const valid = summary.totals.valid;
    const filed = await untilFiled(sim, job, valid, started + WAIT_MS);
    const seconds = (Date.now() - started) / 1000;
    const cpuAfter = cpuMsOf(pid);
    return {
      tree,
      valid,
      seconds,
      cpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
      ...filed,
    };
  } finally {
    await stopDaemon(daemon, "SIGTERM");
    await forgetPrefix(redisUrl ?? DEFAULT_REDIS_URL, prefix);
  }
}

/** The example job's shape: a campaign per file and callee zone, the job's window, no `calling:`. */
const jobYaml = (job: string, inbox: string) => `name: ${job}
inbox: ${inbox}
segment:
  name: bench-file-campaigns-${job}
contacts:
  country: US
import:
  concurrency: 16
campaign:
  assistant:
    name: Demo assistant
  dialer:
    id: dlr_demo
  name: "{job} {file}"
  audience: file
  start:
    window:
      days: [mon, tue, wed, thu, fri, sat, sun]
      from: "08:00"
      to: "21:00"
      timezone: callee
      fallbackTimezone: America/New_York
`;

/** Waits until the job's campaigns' segments hold `valid` rows in all; what they hold then. */
async function untilFiled(
  sim: Simulator,
  job: string,
  valid: number,
  deadline: number,
): Promise<{ campaigns: number; filed: number; duplicates: number }> {
  for (;;) {
    const campaigns = sim.store
      .list<StoredCampaign>("campaigns")
      .filter((c) => String(c.fields.campaigns_name ?? "").startsWith(`${job} `));
    const phones = campaigns.flatMap((c) =>
      sim.store.contactsOf(c.segmentId).map((p) => String(p.fields.phone)),
    );
    const distinct = new Set(phones).size;
    if (distinct >= valid || Date.now() > deadline) {
      if (distinct < valid) console.error(`${job}: ${distinct} of ${valid} rows filed after ${WAIT_MS} ms`);
      return { campaigns: campaigns.length, filed: distinct, duplicates: phones.length - distinct };
    }
    await sleep(250);
  }
}
