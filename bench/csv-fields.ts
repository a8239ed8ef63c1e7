/**
 * `npm run bench -- csv-fields [--base DIR] [--timeout S]`: CSV files of one shape each, read as
 * `vcw validate` reads them (issue 43): a quoted field left open over 100,000 to 1,100,000 lines of
 * 80 characters (88 MB at the most, under a job's 100 MiB), and records just under the
 * 1,000,000-character limit. Reading must take time linear in the file's size and flat memory: a
 * field left open fails at once. Each pass runs from source in its own process (validate-pass.ts),
 * killed after --timeout seconds (default 300); with --base, the same passes in another worktree.
 */
import { once } from "node:events";
import { createWriteStream, existsSync, mkdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { fmt, mb, table } from "./lib.ts";
import { type Pass, validatePass } from "./validate-pass.ts";

const DATA = resolve("bench/.data");

/** Text after the header, in pieces: what each shape repeats until the file is written. */
const SHAPES: Record<string, { rounds: number; piece: () => string; opening?: string; closing?: string }> = {
  "open field, 100k lines": { rounds: 100, piece: () => `${"x".repeat(79)}\n`.repeat(1_000), ...openField() },
  "open field, 200k lines": { rounds: 200, piece: () => `${"x".repeat(79)}\n`.repeat(1_000), ...openField() },
  "open field, 400k lines": { rounds: 400, piece: () => `${"x".repeat(79)}\n`.repeat(1_000), ...openField() },
  "open field, 1.1M lines": {
    rounds: 1_100,
    piece: () => `${"x".repeat(79)}\n`.repeat(1_000),
    ...openField(),
  },
  "80 quoted fields of 12,000 lines": {
    rounds: 80,
    piece: () => `A,4155550101,"${`${"x".repeat(79)}\n`.repeat(12_000)}"\n`,
  },
  "80 lines of 990,000 characters": { rounds: 80, piece: () => `A,4155550101,${"y".repeat(990_000)}\n` },
};

function openField() {
  return { opening: 'A,4155550101,ok\nB,4155550102,"', closing: '"\nC,4155550103,ok\n' };
}

async function write(path: string, shape: (typeof SHAPES)[string]): Promise<void> {
  const out = createWriteStream(path);
  out.write(`Name,Phone,Notes\n${shape.opening ?? ""}`);
  const piece = shape.piece();
  for (let i = 0; i < shape.rounds; i++) if (!out.write(piece)) await once(out, "drain");
  out.end(shape.closing ?? "");
  await once(out, "finish");
}

export async function run(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { base: { type: "string" }, timeout: { type: "string" } },
    strict: false,
  });
  const timeoutS = Number(values.timeout ?? 300);
  const base = typeof values.base === "string" ? resolve(values.base) : undefined;
  mkdirSync(DATA, { recursive: true });
  const show = (p: Pass) => `${p.outcome}, ${fmt(p.seconds, 2)} s, peak RSS ${fmt(p.rssMb)} MB`;
  const rows = [];
  for (const [name, shape] of Object.entries(SHAPES)) {
    const file = join(DATA, `csv-field-${name.replace(/[^a-z0-9]+/gi, "-")}.csv`);
    if (!existsSync(file)) await write(file, shape);
    const ours = await validatePass(process.cwd(), file, timeoutS);
    const theirs = base ? await validatePass(base, file, timeoutS) : undefined;
    rows.push({
      shape: `${name} (${mb(statSync(file).size)})`,
      ours: show(ours),
      ...(theirs ? { base: show(theirs) } : {}),
    });
  }
  console.log("\nvalidate on CSV files of one shape each (from source through tsx, one process a pass)");
  table(rows);
}
