/**
 * CSV validation throughput and memory, beside a parse-only papaparse pass over the same file in
 * the same run. Goals (issue 3): peak RSS flat and under 150 MB from 100k to 1M rows; at least
 * 50,000 rows/s validated on one core. Then the same contacts as .xlsx workbooks, beside an
 * exceljs-only read (issue 12; skipped with BENCH_XLSX=0).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { writeContactsCsv } from "./contacts-csv.ts";
import { writeContactsXlsx } from "./ingest-xlsx.ts";
import { fmt, mb, table } from "./lib.ts";

const DATA = "bench/.data";
const SIZES = [100_000, 1_000_000];
const child = fileURLToPath(new URL("./ingest-child.js", import.meta.url));
const source = "bench/ingest-child.ts";

interface Pass {
  rows: number;
  ms: number;
  maxRssMb: number;
}

type Mode = "validate" | "parse" | "parse-xlsx";

function measure(mode: Mode, file: string, viaTsx = false): Pass {
  const args = viaTsx ? ["--import", "tsx", source, mode, file] : [child, mode, file];
  return JSON.parse(execFileSync(process.execPath, args, { encoding: "utf8" }).trim().split("\n").pop()!);
}

interface Format {
  title: string;
  ext: string;
  write: (path: string, rows: number) => Promise<unknown>;
  parseMode: Mode;
  /** The parser alone, as the table names it. */
  parser: string;
  /** Rows/s to reach, if any. */
  goal?: number;
}

/** Our validation and the parser alone over the same files, one process per pass. */
async function compare(f: Format): Promise<void> {
  const rows = [];
  for (const n of SIZES) {
    const file = `${DATA}/contacts-${n}.${f.ext}`;
    if (!existsSync(file)) await f.write(file, n);
    const parse = measure(f.parseMode, file);
    const ours = measure("validate", file);
    const rate = (p: Pass) => p.rows / (p.ms / 1000);
    rows.push({
      rows: fmt(n),
      file: mb(statSync(file).size),
      [`${f.parser} only rows/s`]: fmt(rate(parse)),
      "validated rows/s": fmt(rate(ours)),
      "ours / parse-only": fmt(rate(ours) / rate(parse), 3),
      ...(f.goal ? { [`ours / ${f.goal / 1000}k goal`]: fmt(rate(ours) / f.goal, 2) } : {}),
      "parse-only peak RSS": `${fmt(parse.maxRssMb)} MB`,
      "validated peak RSS": `${fmt(ours.maxRssMb)} MB`,
    });
  }
  console.log(`\n${f.title}`);
  table(rows);
}

export async function run(): Promise<void> {
  mkdirSync(DATA, { recursive: true });
  await compare({
    title: "CSV validation (compiled JS, one process per pass)",
    ext: "csv",
    write: writeContactsCsv,
    parseMode: "parse",
    parser: "papaparse",
    goal: 50_000,
  });
  const tsx = measure("validate", `${DATA}/contacts-1000000.csv`, true);
  console.log(
    `same 1M-row validation run from source through tsx (as bin/vcw.js does): ${fmt(tsx.rows / (tsx.ms / 1000))} rows/s, peak RSS ${fmt(tsx.maxRssMb)} MB (tsx's loader thread costs memory, not speed)`,
  );
  if (process.env.BENCH_XLSX === "0") return;
  await compare({
    title: ".xlsx validation (same contacts, written as Excel does: shared strings after the sheet)",
    ext: "xlsx",
    write: writeContactsXlsx,
    parseMode: "parse-xlsx",
    parser: "exceljs",
  });
}
