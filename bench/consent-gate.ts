/**
 * What the consent gate costs an import (decision 0067): one file of N rows imported by the one
 * import use case against the in-process simulator (no latency, no rate limit: the gate's own cost
 * shows) and a real Redis, three ways: no consent column and nothing required (every existing job),
 * consent columns with `require: written` all met, and half the rows refused. Wall time, Redis
 * commands per row. `npm run bench -- consent-gate [--rows 2000] [--runs 3]`.
 */
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { createClient } from "../src/api/index.ts";
import { JobDefinition } from "../src/config/job-definition.ts";
import { DEFAULT_REDIS_URL } from "../src/config/settings.ts";
import { createFileRegistry } from "../src/inbox/file-registry.ts";
import { redisKeys } from "../src/lib/redis-keys.ts";
import { createImportUseCase, importSpecOf } from "../src/pipeline/import/import-use-case.ts";
import { createAuditLog } from "../src/pipeline/stores/audit-log.ts";
import { createCallHistory } from "../src/pipeline/stores/call-history.ts";
import { createConsentStore } from "../src/pipeline/stores/consent-store.ts";
import { createContactLedger } from "../src/pipeline/stores/contact-ledger.ts";
import { createCreateMemo } from "../src/pipeline/stores/create-memo.ts";
import { createFileRowsStore } from "../src/pipeline/stores/file-rows.ts";
import { createSuppressionList } from "../src/pipeline/stores/suppression.ts";
import { startSimulator } from "../src/simulator/server.ts";
import { fmt, median, table } from "./lib.ts";

const KEY = "bench-key";

type Way = "none" | "written" | "half";
function csv(way: Way, ROWS: number): string {
  const head =
    way === "none"
      ? "Phone,First Name"
      : "Phone,First Name,Consent Given At,Consent Kind,xxTrustedFormCertUrl";
  const lines = [head];
  for (let i = 0; i < ROWS; i++) {
    const phone = `415${String(3_000_000 + i).padStart(7, "0")}`;
    if (way === "none") lines.push(`${phone},P${i}`);
    else
      lines.push(
        `${phone},P${i},2026-01-05T10:00:00Z,${way === "half" && i % 2 ? "express" : "written"},https://cert.trustedform.com/${i}`,
      );
  }
  return `${lines.join("\n")}\n`;
}

const commands = async (redis: Redis) =>
  Number(/total_commands_processed:(\d+)/.exec(await redis.info("stats"))![1]);

async function once(way: Way, rows: number, redis: Redis, url: string) {
  const keys = redisKeys(`vcw-bench-${randomBytes(4).toString("hex")}`);
  const client = createClient({ baseUrl: url, apiKey: KEY });
  const imports = createImportUseCase({
    client,
    memo: createCreateMemo(redis, keys, { retentionMs: 3_600_000 }),
    leaseMs: 30_000,
    ledger: createContactLedger(redis, { keys, leaseMs: 30_000, settleMs: 0 }),
    registry: createFileRegistry(redis, keys),
    suppression: createSuppressionList(redis, keys),
    history: createCallHistory(redis, keys, { keepMs: 3_600_000 }),
    fileRows: createFileRowsStore(redis, keys),
    consent: createConsentStore(redis, keys),
    audit: createAuditLog(redis, keys),
  });
  const def = JobDefinition.parse({
    name: "bench",
    inbox: "/nowhere",
    segment: { name: `bench-${keys.prefix}` },
    contacts: { country: "US" },
    calling: { consent: { require: way === "none" ? "none" : "written" } },
  });
  const path = join(tmpdir(), `${keys.prefix}.csv`);
  writeFileSync(path, csv(way, rows));
  const before = await commands(redis);
  const started = performance.now();
  const result = await imports.run({
    spec: importSpecOf(def),
    path,
    sha256: keys.prefix,
    original: "bench.csv",
    admittedAt: Date.now(),
    owner: "bench",
    creator: `bench:${keys.prefix}:0`,
    errorsPath: `${path}.errors.csv`,
  });
  const ms = performance.now() - started;
  return { ms, perRow: ((await commands(redis)) - before) / rows, created: result.created };
}

export async function run(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { rows: { type: "string", default: "2000" }, runs: { type: "string", default: "3" } },
  });
  const rows = Number(values.rows);
  const runs = Number(values.runs);
  const sim = await startSimulator({ apiKey: KEY });
  const redis = new Redis(process.env.REDIS_URL ?? DEFAULT_REDIS_URL);
  const out: Record<string, string>[] = [];
  await once("none", rows, redis, sim.url); // a warm-up, not counted: the first import compiles what all use
  // Interleaved, so a drift of the machine or of the simulator's growing store hits each way alike.
  const ways = ["none", "written", "half"] as const;
  const done = new Map<Way, Awaited<ReturnType<typeof once>>[]>(ways.map((w) => [w, []]));
  for (let r = 0; r < runs; r++)
    for (const way of ways) done.get(way)!.push(await once(way, rows, redis, sim.url));
  for (const [way, all] of done)
    out.push({
      consent: way,
      created: String(all[0]!.created),
      "median ms": fmt(median(all.map((x) => x.ms))),
      "Redis commands a row": fmt(median(all.map((x) => x.perRow)), 1),
    });
  table(out);
  await redis.quit();
  await sim.close();
}
