/**
 * `npm run bench -- workbooks [--base DIR] [--timeout S]`: `validate` on the hostile workbooks of
 * issue 17 (built by test/support/xlsx-bombs.ts into bench/.data): a 2.4 MB zip bomb, a 1.5 MB
 * shared-strings table, 1 GB of whitespace in a 1 MB file, 5,000 rows touching column XFD; and a
 * real 100,000-row workbook as the bound. Each pass runs from source (tsx) in its own process with a
 * private TMPDIR, polled every 100 ms for its size; killed after --timeout seconds (default 60).
 * With --base, the same passes run in another worktree (main's code), for ours vs base in one run.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  badRows,
  sharedStringsBomb,
  whitespaceBomb,
  widestRows,
  zipBomb,
} from "../test/support/xlsx-bombs.ts";
import { writeContactsXlsx } from "./ingest-xlsx.ts";
import { fmt, mb, table } from "./lib.ts";
import { type Pass, validatePass } from "./validate-pass.ts";

const DATA = resolve("bench/.data");

const FILES: [name: string, make: (path: string) => Promise<unknown>][] = [
  ["zip-bomb.xlsx", async (p) => writeFileSync(p, await zipBomb(700_000_000))],
  ["shared-strings-bomb.xlsx", async (p) => writeFileSync(p, await sharedStringsBomb(36_000_000))],
  ["whitespace-bomb.xlsx", async (p) => writeFileSync(p, await whitespaceBomb(1_000_000_000))],
  ["xfd-rows.xlsx", async (p) => writeFileSync(p, await widestRows(5_000))],
  ["bad-rows.xlsx", async (p) => writeFileSync(p, await badRows(200_000))],
  ["contacts-100000.xlsx", (p) => writeContactsXlsx(p, 100_000)],
];

export async function run(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { base: { type: "string" }, timeout: { type: "string" } },
    strict: false,
  });
  const timeoutS = Number(values.timeout ?? 60);
  const base = typeof values.base === "string" ? resolve(values.base) : undefined;
  mkdirSync(DATA, { recursive: true });
  const rows = [];
  for (const [name, make] of FILES) {
    const file = join(DATA, name);
    if (!existsSync(file)) await make(file);
    const show = (p: Pass) =>
      `${p.outcome}, ${fmt(p.seconds, 1)} s, RSS ${fmt(p.rssMb)} MB, TMPDIR peak ${mb(p.tmpPeak)} (left ${mb(p.tmpLeft)}), report ${mb(p.reportBytes)}`;
    const ours = await validatePass(process.cwd(), file, timeoutS);
    const theirs = base ? await validatePass(base, file, timeoutS) : undefined;
    rows.push({
      file: `${name} (${mb(statSync(file).size)})`,
      ours: show(ours),
      ...(theirs ? { base: show(theirs), "RSS ours/base": fmt(ours.rssMb / theirs.rssMb, 2) } : {}),
    });
  }
  const bound = rows.at(-1);
  console.log(
    `\nvalidate on hostile workbooks (from source through tsx; the last row, a real workbook, is the bound)`,
  );
  table(rows);
  if (bound)
    console.log("RSS of a refused bomb should stay near the real workbook's; TMPDIR should stay at 0.");
}
