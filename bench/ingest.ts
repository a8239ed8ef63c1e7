/**
 * CSV validation throughput and memory, beside a parse-only papaparse pass over the same file in
 * the same run. Goals (issue 3): peak RSS flat and under 150 MB from 100k to 1M rows; at least
 * 50,000 rows/s validated on one core. Then the same contacts as .xlsx workbooks (issue 12; skipped
 * with BENCH_XLSX=0).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { writeContactsCsv } from "./contacts-csv.ts";
import { runXlsx } from "./ingest-xlsx.ts";
import { fmt, mb, table } from "./lib.ts";

const DATA = "bench/.data";
const child = fileURLToPath(new URL("./ingest-child.js", import.meta.url));
const source = "bench/ingest-child.ts";

interface Pass {
  rows: number;
  ms: number;
  maxRssMb: number;
}

function measure(mode: "validate" | "parse" | "parse-xlsx", file: string, viaTsx = false): Pass {
  const args = viaTsx ? ["--import", "tsx", source, mode, file] : [child, mode, file];
  return JSON.parse(execFileSync(process.execPath, args, { encoding: "utf8" }).trim().split("\n").pop()!);
}

export async function run(): Promise<void> {
  mkdirSync(DATA, { recursive: true });
  const rows = [];
  for (const n of [100_000, 1_000_000]) {
    const file = `${DATA}/contacts-${n}.csv`;
    if (!existsSync(file)) await writeContactsCsv(file, n);
    const parse = measure("parse", file);
    const ours = measure("validate", file);
    const rate = (p: Pass) => p.rows / (p.ms / 1000);
    rows.push({
      rows: fmt(n),
      file: mb(statSync(file).size),
      "papaparse only rows/s": fmt(rate(parse)),
      "validated rows/s": fmt(rate(ours)),
      "ours / parse-only": fmt(rate(ours) / rate(parse), 3),
      "ours / 50k goal": fmt(rate(ours) / 50_000, 2),
      "parse-only peak RSS": `${fmt(parse.maxRssMb)} MB`,
      "validated peak RSS": `${fmt(ours.maxRssMb)} MB`,
    });
  }
  console.log("\nCSV validation (compiled JS, one process per pass)");
  table(rows);
  const tsx = measure("validate", `${DATA}/contacts-1000000.csv`, true);
  console.log(
    `same 1M-row validation run from source through tsx (as bin/vcw.js does): ${fmt(tsx.rows / (tsx.ms / 1000))} rows/s, peak RSS ${fmt(tsx.maxRssMb)} MB (tsx's loader thread costs memory, not speed)`,
  );
  if (process.env.BENCH_XLSX !== "0")
    await runXlsx(DATA, [100_000, 1_000_000], (mode, file) => measure(mode, file));
}
