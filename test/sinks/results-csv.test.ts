import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { formulaSafe } from "../../src/lib/formula-safe.ts";
import { maskPhone } from "../../src/lib/mask-phone.ts";
import type { ResultRecord } from "../../src/pipeline/model/results.ts";
import { resultsCsv } from "../../src/pipeline/reports/results-csv.ts";
import { RESULT_COLUMNS, resultRow, writeResultsCsv } from "../../src/sinks/file/results-csv.ts";
import { tempDir } from "../support/files.ts";
import { resultRecord } from "../support/fixtures.ts";

async function* from<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

/** What the CSV was before it was written in runs: all rows, sorted in memory, in one string. */
const inMemory = (records: ResultRecord[]) => {
  const rows = [...new Map(records.map((r) => [r.phone, r])).values()]
    .map((r) => resultRow(r).map(formulaSafe))
    .sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));
  return `\uFEFF${Papa.unparse([[...RESULT_COLUMNS], ...rows], { newline: "\r\n" })}\r\n`;
};

describe("the results CSV, in bounded memory", () => {
  // Transcripts with line breaks, quotes and commas; phones in no order; some read twice (HSCAN may).
  const records = Array.from({ length: 95 }, (_, i) =>
    resultRecord(`+1415555${String((i * 37) % 95).padStart(4, "0")}`, {
      status: i % 3 ? "completed" : "busy",
      transcript: `Assistant: "Hello", ${i}\nCustomer: bye`,
      first_name: i % 10 === 0 ? "=cmd()" : `N${i}`,
    }),
  );
  const twice = [...records, ...records.slice(10, 25)];

  it("sorted in runs and merged: the same file as one sort in memory, each phone once, no temporary file left", async () => {
    const dir = tempDir();
    const small = join(dir, "c.results.csv");
    expect(await writeResultsCsv(small, from(twice), { runRows: 7 })).toBe(95);
    const text = readFileSync(small, "utf8");
    expect(text).toBe(inMemory(records));
    const big = join(dir, "d.results.csv");
    expect(await writeResultsCsv(big, from(twice))).toBe(95);
    expect(readFileSync(big, "utf8")).toBe(text);
    expect(readdirSync(dir).sort()).toEqual(["c.results.csv", "d.results.csv"]);
    const parsed = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data;
    expect(parsed[0]).toEqual([...RESULT_COLUMNS]);
    expect(parsed.slice(1).map((r) => r[0])).toEqual(
      [...new Set(records.map((r) => r.phone))].sort().map((p) => `'${p}`),
    );
  });

  it("no records: the header alone; a failure leaves no file, and no run behind", async () => {
    const dir = tempDir();
    const empty = join(dir, "e.results.csv");
    expect(await writeResultsCsv(empty, from([]))).toBe(0);
    expect(readFileSync(empty, "utf8")).toBe(inMemory([]));
    async function* failing(): AsyncGenerator<ResultRecord> {
      yield* records.slice(0, 20);
      throw new Error("Redis went away");
    }
    await expect(writeResultsCsv(join(dir, "f.results.csv"), failing(), { runRows: 7 })).rejects.toThrow(
      "Redis went away",
    );
    expect(readdirSync(dir)).toEqual(["e.results.csv"]);
  });

  it("a masked download keeps each phone once by its whole number: two that mask alike are two rows", async () => {
    const dir = tempDir();
    const twins = [resultRecord("+14155550123"), resultRecord("+14155559923"), resultRecord("+14155550123")];
    const chunks: string[] = [];
    for await (const chunk of resultsCsv(from(twins), { phone: maskPhone, spillAt: join(dir, "x.csv") }))
      chunks.push(chunk);
    const lines = chunks.join("").split("\r\n").filter(Boolean);
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(["'+14•••••••23", "'+14•••••••23"]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a pool campaign's rows give the number it called from (issue 47), whole: it is the operator's", async () => {
    const dir = tempDir();
    const path = join(dir, "pool.results.csv");
    await writeResultsCsv(path, from([resultRecord("+12122000003")]), { callerNumber: "+14152000100" });
    const parsed = Papa.parse<string[]>(readFileSync(path, "utf8").slice(1), { skipEmptyLines: true }).data;
    expect(parsed[0]!.at(-1)).toBe("caller_number");
    expect(parsed[1]!.at(-1)).toBe("'+14152000100");
    expect(parsed[1]![0]).toBe("'+12122000003");
  });
});
