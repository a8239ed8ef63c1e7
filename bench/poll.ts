/**
 * `npm run bench -- poll [--entries N[,N...]] [--json]`: poll-and-diff of one campaign of N
 * audience entries (default 100,000; up to 1,000,000 and more), each N in a polling process of its
 * own (`poll-run.ts`) so that its peak RSS is that process's alone. Reported per run: peak RSS,
 * first poll, unchanged poll (warm, and cold: no index in the process), a poll with a few changes,
 * and the bare streaming read of the same body with the same reader (`msBare`; `msBareStreamparser`
 * with @streamparser/json, the reader before decision 0082), with the ratios
 * the issue sets as goals. `--json` prints one JSON object per run instead of tables.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { fmt, table } from "./lib.ts";
import type { PollRun } from "./poll-run.ts";

export async function run(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { entries: { type: "string", multiple: true }, json: { type: "boolean" } },
    strict: false,
  });
  const sizes = ((values.entries as string[] | undefined) ?? [process.env.BENCH_POLL_ENTRIES ?? "100000"])
    .flatMap((v) => v.split(","))
    .map((v) => Number(v.replace(/_/g, "")));
  if (sizes.some((n) => !Number.isSafeInteger(n) || n < 1))
    throw new Error("--entries takes whole numbers > 0");
  const runs: PollRun[] = [];
  for (const entries of sizes) {
    const result = await runOne(entries);
    runs.push(result);
    if (values.json) console.log(JSON.stringify(result));
  }
  if (values.json) return;
  for (const r of runs) {
    console.log(
      `${fmt(r.entries)} audience entries (${fmt(r.bodyMb, 1)} MB of JSON); bare streaming read (HTTP + the client's reader, each entry parsed, no vcw logic): ${fmt(r.msBare)} ms (${fmt(r.msBareFewChanges)} ms for the bodies with a few changes; ${fmt(r.msBareStreamparser)} ms with @streamparser/json); load average ${r.loadAverage.join(", ")}`,
    );
    const row = (
      poll: string,
      ms: number,
      bare: number,
      goal: string,
      cpu?: [number, number],
      redis?: number,
    ) => ({
      poll,
      ms: fmt(ms),
      "/ bare": fmt(ms / bare, 2),
      goal,
      "cpu / bare cpu": cpu ? fmt(cpu[0] / cpu[1], 2) : "",
      "redis commands": redis === undefined ? "" : fmt(redis),
    });
    table([
      row("first (every entry new)", r.msFirst, r.msBare, "", undefined, r.redisCommands.first),
      row(
        "unchanged",
        r.msUnchanged,
        r.msBare,
        "<= 1.1",
        [r.cpuMs.unchanged, r.cpuMs.bare],
        r.redisCommands.unchanged,
      ),
      row("unchanged, no index in the process", r.msUnchangedCold, r.msBare, ""),
      row(
        "unchanged, against the bare read with @streamparser/json (the reader before)",
        r.msUnchanged,
        r.msBareStreamparser,
        "",
        [r.cpuMs.unchanged, r.cpuMs.bareStreamparser],
      ),
      row(
        `a few changes (${fmt(r.fewChanged)})`,
        r.msFewChanges,
        r.msBareFewChanges,
        "<= 1.3",
        [r.cpuMs.fewChanges, r.cpuMs.bareFewChanges],
        r.redisCommands.fewChanges,
      ),
    ]);
    console.log(
      `peak RSS of the polling process (the simulator and the bare reads run in others): ${fmt(r.peakRssMb)} MB (goal <= 300 MB at 1,000,000)`,
    );
  }
  if (runs.length > 1) {
    const small = runs.reduce((a, b) => (a.entries <= b.entries ? a : b));
    const big = runs.reduce((a, b) => (a.entries >= b.entries ? a : b));
    console.log(
      `peak RSS at ${fmt(big.entries)} minus at ${fmt(small.entries)}: ${fmt(big.peakRssMb - small.peakRssMb)} MB (goal <= 50 MB)`,
    );
  }
}

function runOne(entries: number): Promise<PollRun> {
  const child = fork(fileURLToPath(new URL("./poll-run.js", import.meta.url)), [String(entries)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    execArgv: [...process.execArgv, "--expose-gc"],
  });
  return new Promise((resolve, reject) => {
    child.once("message", (m) => resolve(m as PollRun));
    child.once("exit", (code) => reject(new Error(`the poll run of ${entries} entries exited with ${code}`)));
  });
}
