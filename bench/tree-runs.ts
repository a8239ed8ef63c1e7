/**
 * What the benchmarks that compare code trees share (`guardrail`, `poll-unchanged`): the list of
 * sizes, the trees to run (ours, and the base with `--base`), one run in a child process of its own
 * (so each tree's modules and heap are apart), and how busy the machine was.
 */
import { fork } from "node:child_process";
import os from "node:os";
import { baseTree, OURS } from "./base-tree.ts";

/** "10,1_000,10000" as numbers; the fallback when the option is not given. */
export function sizesOf(value: unknown, fallback: string): number[] {
  return String(value ?? fallback)
    .split(",")
    .map((v) => {
      const n = Number(v.replace(/_/g, ""));
      if (!Number.isInteger(n) || n <= 0) throw new Error(`sizes are whole numbers > 0, not "${v}"`);
      return n;
    });
}

/** Ours, then the base's build when `--base` names one: [label, root] pairs. */
export const treesOf = (base: unknown): [string, string][] =>
  typeof base === "string"
    ? [
        ["ours", OURS],
        ["base", baseTree(base)],
      ]
    : [["ours", OURS]];

/** Runs `script` (a compiled file of dist/bench) in a child and resolves with the one message it sends. */
export function runInChild<T>(script: URL, args: string[], what: string): Promise<T> {
  const child = fork(script, args, {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    execArgv: (process.env.BENCH_NODE_OPTIONS ?? "").split(" ").filter(Boolean),
  });
  return new Promise<T>((resolve, reject) => {
    child.once("message", (m) => resolve(m as T));
    child.once("exit", (code) => reject(new Error(`the ${what} run exited with ${code}`)));
  });
}

/** "1.23, 0.98, 0.75": the load averages, for a caption (a busy machine's figures are suspect). */
export const loadAverageText = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");
