/**
 * `npm run bench -- import [--rows N] [--schedule 0:200,30:100,60:200] [--only fixed|moving]`: the
 * daemon importing a dropped file of 20,000 contacts into the simulator, which answers after 25 ms
 * and refuses (429) beyond a rate limit the worker is not told. Two runs: a fixed limit of 200
 * requests a second, and a limit that moves (by default halved from second 30 to 60 of the import,
 * then back). Reported per run: contacts/s against the time-averaged limit, the share of requests
 * answered 429, duplicates; and a plain sequential import loop over 1,000 rows as a baseline.
 */
import { randomBytes } from "node:crypto";
import {
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
import { parseArgs } from "node:util";
import pino from "pino";
import { createClient } from "../src/api/index.ts";
import { resolveSettings } from "../src/config/settings.ts";
import { startDaemon } from "../src/daemon/daemon.ts";
import { ContactFileReader } from "../src/ingest/reader.ts";
import type { ImportFileResult } from "../src/pipeline/import/import-file.ts";
import type { ImportSummary } from "../src/queue/import-processor.ts";
import { averageLimit, parseRateSchedule, type RateSchedule } from "../src/simulator/rate-schedule.ts";
import { type Simulator, startSimulator } from "../src/simulator/server.ts";
import { writeContactsCsv } from "./contacts-csv.ts";
import { fmt, table } from "./lib.ts";

const KEY = "bench-key-0123456789";
const LIMIT = 200;
const LATENCY_MS = 25;
const BASELINE_ROWS = 1_000;
const MOVING = "0:200,30:100,60:200";

export async function run(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { rows: { type: "string" }, schedule: { type: "string" }, only: { type: "string" } },
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
  const reader = await ContactFileReader.open(csv, { defaultCountry: "US" });
  const firstRows = [];
  for await (const row of reader) {
    if (row.kind === "valid") firstRows.push(row.contact);
    if (firstRows.length === BASELINE_ROWS) break;
  }
  const baseStarted = performance.now();
  for (const contact of firstRows) await plain.contacts.create(baseSegment, contact);
  const baselineRate = BASELINE_ROWS / ((performance.now() - baseStarted) / 1000);

  const runs: ImportRun[] = [];
  if (values.only !== "moving")
    runs.push(await importRun(sim, home, csv, "fixed", [{ atSec: 0, perSecond: LIMIT }]));
  if (values.only !== "fixed") runs.push(await importRun(sim, home, csv, "moving", moving));
  await sim.close();
  rmSync(home, { recursive: true, force: true });

  console.log(
    `${fmt(contacts)} rows dropped into the inbox; service: ${LATENCY_MS} ms latency, a rate limit unknown to the worker; sequential loop over the first 1,000 rows: ${fmt(baselineRate, 1)} contacts/s`,
  );
  for (const r of runs) {
    console.log(
      `\n${r.label} limit (${r.schedule.map((s) => `${s.atSec}:${s.perSecond}`).join(",")}, seconds:requests per second from the drop): ${fmt(r.valid)} valid rows in ${fmt(r.seconds, 1)} s`,
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
        measure: "shared rate at the end",
        value: `${fmt(r.endRate, 1)} req/s`,
        ratio: `${r.cuts} decreases`,
      },
    ]);
  }
}

interface ImportRun {
  label: string;
  schedule: RateSchedule;
  valid: number;
  seconds: number;
  rate: number;
  averageLimit: number;
  requests: number;
  refused: number;
  duplicates: number;
  endRate: number;
  cuts: number;
}

/** One import by a fresh daemon (its own prefix: nothing learnt from the last run), a segment of its own. */
async function importRun(
  sim: Simulator,
  home: string,
  csv: string,
  label: string,
  schedule: RateSchedule,
): Promise<ImportRun> {
  const inbox = join(home, `inbox-${label}`);
  const jobs = join(home, `jobs-${label}`);
  mkdirSync(jobs);
  writeFileSync(
    join(jobs, "bench.yaml"),
    `name: bench\ninbox: ${inbox}\nsegment:\n  name: bench-import-${label}\ncontacts:\n  country: US\nimport:\n  concurrency: 16\n`,
  );
  const settings = resolveSettings({
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    VCS_BASE_URL: sim.url,
    VCS_API_KEY: KEY,
    VCW_JOBS_DIR: jobs,
    VCW_HOME: join(home, `.vcw-${label}`),
    VCW_PREFIX: `vcw-bench-${randomBytes(4).toString("hex")}`,
    VCW_STABLE_MS: "200",
    VCW_HTTP_ADDR: "off", // a daemon of the developer's may have 127.0.0.1:9400
  });
  const daemon = await startDaemon({ settings, logger: pino({ level: "silent" }), watch: true, work: true });
  await daemon.ready;
  await sleep(1_100); // the service's bucket refills
  sim.stats.reset();
  // The schedule counts from now: the moment the file is dropped.
  sim.setFaults({ rateLimitSchedule: schedule });
  const scheduleStart = sim.rateLimitScheduleStartedAt;
  const started = Date.now();
  mkdirSync(inbox, { recursive: true });
  writeFileSync(join(inbox, ".contacts.csv.part"), readFileSync(csv));
  renameSync(join(inbox, ".contacts.csv.part"), join(inbox, "contacts.csv"));
  let summary: (ImportSummary & ImportFileResult) | undefined;
  while (!summary) {
    await sleep(100);
    const done = join(inbox, "done");
    const name = readdirSync(inbox).includes("done")
      ? readdirSync(done).find((f) => f.endsWith(".summary.json"))
      : undefined;
    if (name) summary = JSON.parse(readFileSync(join(done, name), "utf8"));
  }
  const ended = Date.now();
  const seconds = (ended - started) / 1000;
  const limiter = await daemon.limiter.state();
  const requests = sim.stats.total;
  const refused = sim.stats.count(429);
  const plain = createClient({ baseUrl: sim.url, apiKey: KEY });
  sim.setFaults({ rateLimit: 0 }); // listing the segment is not part of the run
  const listed = await plain.contacts.list(summary.segment!.id);
  await daemon.close();
  return {
    label,
    schedule,
    valid: summary.totals.valid,
    seconds,
    rate: summary.created / seconds,
    averageLimit: averageLimit(schedule, (started - scheduleStart) / 1000, (ended - scheduleStart) / 1000),
    requests,
    refused,
    duplicates: listed.length - new Set(listed.map((c) => c.phone)).size,
    endRate: limiter.rate ?? 0,
    cuts: limiter.cuts,
  };
}
