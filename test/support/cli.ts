import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";
import { API_KEY } from "./fixtures.ts";

export const VCW = [fileURLToPath(new URL("../../bin/vcw.js", import.meta.url))];

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `vcw ARGS` to completion. */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 30_000,
  cwd?: string,
): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...VCW, ...args],
      { env: { ...process.env, ...env }, timeout: timeoutMs, ...(cwd ? { cwd } : {}) },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** Starts `vcw ARGS` and resolves with its first line of output (e.g. the simulator's URL). */
export async function startCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; firstLine: string }> {
  const child = spawn(process.execPath, [...VCW, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += String(d);
  });
  const lines = createInterface({ input: child.stdout! });
  const first = once(lines, "line").then(([line]) => line as string);
  const exited = once(child, "exit").then(() => {
    throw new Error(`vcw ${args.join(" ")} exited early: ${stderr}`);
  });
  return { child, firstLine: await Promise.race([first, exited]) };
}

export async function stopCli(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill("SIGTERM");
  await once(child, "exit");
}

export interface VcwProcess {
  child: ChildProcess;
  /** Everything it logged so far (JSON lines on stderr). */
  logs(): string;
  exited: Promise<void>;
}

/** Spawns a long-running `vcw ARGS` (start, worker) and collects its logs. */
export function spawnVcw(args: string[], env: NodeJS.ProcessEnv, cwd?: string): VcwProcess {
  const child = spawn(process.execPath, [...VCW, ...args], {
    env: { ...process.env, ...env },
    ...(cwd ? { cwd } : {}),
    stdio: ["ignore", "ignore", "pipe"],
  });
  let logs = "";
  child.stderr?.on("data", (d) => {
    logs += String(d);
  });
  const exited = once(child, "exit").then(() => undefined);
  return { child, logs: () => logs, exited };
}

/** The environment of a `vcw` process in a test: its own folders and key space, the given service. */
export function cliEnv(home: string, serviceUrl: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    REDIS_URL: inject("redisUrl"),
    VCS_BASE_URL: serviceUrl,
    VCS_API_KEY: API_KEY,
    VCW_JOBS_DIR: join(home, "jobs"),
    VCW_HOME: join(home, ".vcw"),
    VCW_PREFIX: `vcw-test-${randomBytes(4).toString("hex")}`,
    // As testSettings (support/daemon.ts): the test's simulator queues no create, so no settle time
    // or start lead; a test of those sets them.
    VCW_SETTLE_MS: "0",
    VCW_START_LEAD_MS: "0",
    ...extra,
  };
}
