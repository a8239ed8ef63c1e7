import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fmt } from "./lib.ts";

export interface Pass {
  outcome: string;
  seconds: number;
  rssMb: number;
  tmpPeak: number;
  tmpLeft: number;
  reportBytes: number;
}

const folderBytes = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((sum, e) => {
    // tsx's own cache is not the reader's doing.
    if (e.name.startsWith("tsx-")) return sum;
    const path = join(dir, e.name);
    return (
      sum + (e.isDirectory() ? folderBytes(path) : (statSync(path, { throwIfNoEntry: false })?.size ?? 0))
    );
  }, 0);

/** Peak RSS as Linux keeps it, for a pass that dies before it can report its own; 0 once gone. */
function peakRssKb(pid: number | undefined): number {
  try {
    const match = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmHWM:\s+(\d+)/);
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * One `validate` pass of `file` in `root`'s code, from source (tsx) in its own process with a private
 * TMPDIR polled every 100 ms for its size; killed after `timeoutS` seconds.
 */
export async function validatePass(root: string, file: string, timeoutS: number): Promise<Pass> {
  const tmp = mkdtempSync(join(tmpdir(), "vcw-bench-wb-"));
  const report = `${file}.errors.csv`;
  rmSync(report, { force: true });
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", "bench/ingest-child.ts", "validate", file], {
    cwd: root,
    env: { ...process.env, TMPDIR: tmp },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (b: Buffer) => {
    out += b;
  });
  let tmpPeak = 0;
  let hwmKb = 0;
  let killed = false;
  const poll = setInterval(() => {
    tmpPeak = Math.max(tmpPeak, folderBytes(tmp));
    hwmKb = Math.max(hwmKb, peakRssKb(child.pid));
    if (performance.now() - started > timeoutS * 1000 && !killed) {
      killed = true;
      child.kill("SIGKILL");
    }
  }, 100);
  const code = await new Promise<number | null>((r) => child.on("close", r));
  clearInterval(poll);
  const seconds = (performance.now() - started) / 1000;
  const tmpLeft = folderBytes(tmp);
  rmSync(tmp, { recursive: true, force: true });
  const last = out.trim().split("\n").pop() ?? "";
  const result = last.startsWith("{")
    ? (JSON.parse(last) as { rows: number; maxRssMb: number; error?: string })
    : undefined;
  const reportBytes = existsSync(report) ? statSync(report).size : 0;
  rmSync(report, { force: true });
  return {
    outcome: killed
      ? `killed at ${timeoutS} s`
      : result
        ? (result.error ?? `${fmt(result.rows)} rows`)
        : `exit ${code}`,
    seconds,
    rssMb: Math.max(result?.maxRssMb ?? 0, hwmKb / 1024),
    tmpPeak,
    tmpLeft,
    reportBytes,
  };
}
