/**
 * A compiled `vcw start` of a given code tree (ROOT/dist/src/cli/bin.js) in a process of its own,
 * for the benchmarks that compare this tree with a base one, or kill the daemon: its log in a file,
 * started once it says it runs, stopped (or killed) and waited for, each within a bound.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { deleteMatching } from "../src/lib/delete-keys.ts";
import { redisKeys } from "../src/lib/redis-keys.ts";

/** This tree (the compiled bench runs from ROOT/dist/bench/). */
export const OURS = fileURLToPath(new URL("../..", import.meta.url));

export interface DaemonProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  log: string;
  /** Where this process's output starts in the log (restarts append to it). */
  logFrom: number;
}

/** The tree's compiled CLI, or why it cannot run. */
export function compiledCli(root: string): string | { missing: string } {
  const bin = join(root, "dist/src/cli/bin.js");
  return existsSync(bin) ? bin : { missing: `no compiled tree at ${root}/dist (run npm run build there)` };
}

/** Starts `vcw start` (or `vcw worker`) of `root` with exactly `env` (and PATH), its output appended to `log`. */
export function spawnDaemon(
  root: string,
  env: Record<string, string>,
  log: string,
  role: "start" | "worker" = "start",
): DaemonProcess {
  const bin = compiledCli(root);
  if (typeof bin !== "string") throw new Error(bin.missing);
  const logFrom = existsSync(log) ? statSync(log).size : 0;
  const out = openSync(log, "a");
  const child = spawn(process.execPath, [bin, role], {
    stdio: ["ignore", out, out],
    env: {
      PATH: process.env.PATH ?? "",
      LOG_LEVEL: "info",
      // Node's own flags for the daemons of both trees, e.g. --cpu-prof --cpu-prof-dir=DIR to profile them.
      ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
      ...env,
    },
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  closeSync(out);
  return { child, exited, log, logFrom };
}

/** Resolves once the daemon logged that it runs (its inboxes scanned); throws after `timeoutMs`. */
export async function untilRunning(d: DaemonProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void d.exited.then(() => {
    exited = true;
  });
  for (;;) {
    if (readFileSync(d.log).subarray(d.logFrom).includes("vcw daemon running")) return;
    if (exited) throw new Error(`the daemon exited before running; see ${d.log}`);
    if (Date.now() > deadline)
      throw new Error(`the daemon was not running after ${timeoutMs} ms; see ${d.log}`);
    await sleep(100);
  }
}

/** Stops the daemon with `signal` and waits for it, SIGKILL after `graceMs`. */
export async function stopDaemon(d: DaemonProcess, signal: NodeJS.Signals, graceMs = 30_000): Promise<void> {
  if (d.child.exitCode !== null || d.child.signalCode !== null) return;
  d.child.kill(signal);
  const timer = setTimeout(() => d.child.kill("SIGKILL"), graceMs);
  await d.exited;
  clearTimeout(timer);
}

/** Deletes what a bench daemon left under `prefix` in Redis (kept with BENCH_KEEP, like its home). */
export async function forgetPrefix(redisUrl: string, prefix: string): Promise<void> {
  if (process.env.BENCH_KEEP) return;
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await deleteMatching(redis, redisKeys(prefix).everything);
  } finally {
    redis.disconnect();
  }
}
