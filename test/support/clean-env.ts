import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { cpSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "./files.ts";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * What a new user's shell gives a command: PATH, and a HOME of its own; nothing else. Not the test
 * run's environment: vitest's `test.env` (VCW_HTTP_ADDR=off) and CI's REDIS_URL stay out.
 */
export const cleanEnv = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: tempDir("vcw-user-") });

/**
 * `command` as on a machine where nothing listens (no Redis on 127.0.0.1:6379, no dashboard on
 * 9400): in a network namespace of its own with only loopback, so it takes vcw's own defaults
 * (a private redis-server) and no other run's Redis or ports are shared.
 */
export const onFreshMachine = (command: string[]): string[] => [
  "unshare",
  "-rn",
  "sh",
  "-c",
  'ip link set lo up && exec "$@"',
  "sh",
  ...command,
];

/** Whether this machine can run `onFreshMachine` (user and network namespaces allowed). */
export function freshMachineRuns(): boolean {
  try {
    execFileSync("unshare", ["-rn", "true"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * A fresh clone as `npm ci` leaves it, without copying the tree: its package.json and jobs/ copied
 * (vcw writes inbox/, .vcw/ and reports/ beside them), bin/ and node_modules/ linked.
 */
export function cloneOfCheckout(): string {
  const dir = tempDir("vcw-clone-");
  cpSync(join(ROOT, "jobs"), join(dir, "jobs"), { recursive: true });
  cpSync(join(ROOT, "package.json"), join(dir, "package.json"));
  for (const linked of ["bin", "node_modules"]) symlinkSync(join(ROOT, linked), join(dir, linked));
  writeFileSync(join(dir, ".npmrc"), "update-notifier=false\n");
  return dir;
}

export interface UserProcess {
  child: ChildProcess;
  /** Everything it wrote, stdout and stderr, so far. */
  output(): string;
  exited: Promise<number | null>;
  /** Ctrl-C, as a user stops it (its whole process group), then waits for it. */
  stop(): Promise<number | null>;
}

/** `command` run as a user runs it in `cwd`, with `env` only. */
export function runAsUser(command: string[], cwd: string, env: NodeJS.ProcessEnv): UserProcess {
  const child = spawn(command[0]!, command.slice(1), {
    cwd,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (b: Buffer) => {
    out += b.toString();
  });
  child.stderr!.on("data", (b: Buffer) => {
    out += b.toString();
  });
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return {
    child,
    output: () => out,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid!, "SIGINT");
        } catch {}
      }
      return exited;
    },
  };
}

/** The JSON lines a vcw process logged (pino), other output skipped. */
export function logLines(
  output: string,
): { level: number; time: number; msg: string; [k: string]: unknown }[] {
  return output
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .flatMap((l) => {
      try {
        return [JSON.parse(l)];
      } catch {
        return [];
      }
    });
}
