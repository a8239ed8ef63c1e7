/**
 * The daemon importing a dropped file of 20,000 contacts into the simulator, which answers after
 * 25 ms and accepts 200 requests a second (429 beyond), a limit the worker is not told. Reported:
 * contacts/s against that limit, the share of requests answered 429, duplicates, and a plain
 * sequential import loop over the first 1,000 rows as a baseline, all from this one run.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pino from "pino";
import { createClient } from "../src/api/index.ts";
import { resolveSettings } from "../src/config/settings.ts";
import { startDaemon } from "../src/daemon/daemon.ts";
import { ContactFileReader } from "../src/ingest/reader.ts";
import type { ImportFileResult } from "../src/pipeline/import/import-file.ts";
import type { ImportSummary } from "../src/queue/import-processor.ts";
import { startSimulator } from "../src/simulator/server.ts";
import { writeContactsCsv } from "./contacts-csv.ts";
import { fmt, table } from "./lib.ts";

const KEY = "bench-key-0123456789";
const CONTACTS = Number(process.env.BENCH_IMPORT_ROWS ?? 20_000);
const LIMIT = 200;
const LATENCY_MS = 25;
const BASELINE_ROWS = 1_000;

export async function run(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "vcw-bench-import-"));
  const sim = await startSimulator({ apiKey: KEY, faults: { latencyMs: LATENCY_MS, rateLimit: LIMIT } });
  const csv = join(home, "contacts.csv");
  await writeContactsCsv(csv, CONTACTS, 7);

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
  await sleep(1_100); // let the token bucket refill before the real run

  const inbox = join(home, "inbox");
  mkdirSync(join(home, "jobs"));
  writeFileSync(
    join(home, "jobs", "bench.yaml"),
    `name: bench\ninbox: ${inbox}\nsegment:\n  name: bench-import\ncontacts:\n  country: US\nimport:\n  concurrency: 16\n`,
  );
  const settings = resolveSettings({
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    VCS_BASE_URL: sim.url,
    VCS_API_KEY: KEY,
    VCW_JOBS_DIR: join(home, "jobs"),
    VCW_HOME: join(home, ".vcw"),
    VCW_PREFIX: `vcw-bench-${randomBytes(4).toString("hex")}`,
    VCW_STABLE_MS: "200",
    VCW_HTTP_ADDR: "off", // a daemon of the developer's may have 127.0.0.1:9400
  });
  const daemon = await startDaemon({ settings, logger: pino({ level: "silent" }), watch: true, work: true });
  await daemon.ready;
  sim.stats.reset();
  const started = performance.now();
  mkdirSync(inbox, { recursive: true });
  writeFileSync(join(inbox, ".contacts.csv.part"), readFileSync(csv));
  const { renameSync } = await import("node:fs");
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
  const seconds = (performance.now() - started) / 1000;
  const limiter = await daemon.limiter.state();
  const creates = summary.created;
  const listed = await plain.contacts.list(summary.segment!.id);
  const duplicates = listed.length - new Set(listed.map((c) => c.phone)).size;
  const rate = creates / seconds;
  const total = sim.stats.total;
  const refused = sim.stats.count(429);
  await daemon.close();
  await sim.close();
  rmSync(home, { recursive: true, force: true });

  console.log(
    `${fmt(CONTACTS)} rows (${fmt(summary.totals.valid)} valid) dropped into the inbox; service: ${LATENCY_MS} ms latency, ${LIMIT} req/s limit (unknown to the worker)`,
  );
  table([
    {
      measure: "contacts/s (drop to done/)",
      value: fmt(rate, 1),
      ratio: `${fmt(rate / LIMIT, 3)} of the limit (goal >= 0.9)`,
    },
    {
      measure: "requests answered 429",
      value: `${fmt(refused)} of ${fmt(total)}`,
      ratio: `${fmt((100 * refused) / total, 2)}% (goal <= 2%)`,
    },
    { measure: "duplicates in the segment", value: fmt(duplicates), ratio: "must be 0" },
    {
      measure: "sequential loop, first 1,000 rows",
      value: `${fmt(baselineRate, 1)} contacts/s`,
      ratio: `ours / baseline = ${fmt(rate / baselineRate, 2)}`,
    },
    {
      measure: "shared rate at the end",
      value: `${fmt(limiter.rate ?? 0, 1)} req/s`,
      ratio: `${limiter.cuts} decreases`,
    },
  ]);
}
