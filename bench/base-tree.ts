/**
 * The code tree a benchmark's `--base` names, compiled: a directory holding a build (`dist/`) as
 * it is, or a git ref (`main`, a commit) exported with `git archive` into a temp directory (the
 * repository's worktrees are left alone) and built there once, with this tree's node_modules
 * when both lock the same packages, else after an `npm ci` of its own.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** This checkout's root (the benchmarks run from its dist/bench). */
export const OURS = fileURLToPath(new URL("../..", import.meta.url));

export function baseTree(refOrDir: string): string {
  if (existsSync(path.join(refOrDir, "dist/src"))) return refOrDir;
  const git = (...args: string[]) => execFileSync("git", args, { cwd: OURS, encoding: "utf8" }).trim();
  const commit = git("rev-parse", "--verify", `${refOrDir}^{commit}`);
  const dir = path.join(os.tmpdir(), `vcw-base-${commit.slice(0, 12)}`);
  if (existsSync(path.join(dir, "dist/src"))) return dir;
  mkdirSync(dir, { recursive: true });
  execFileSync("sh", ["-c", `git -C "${OURS}" archive ${commit} | tar -x -C "${dir}"`]);
  // This tree's packages when the base locks the same ones, else its own.
  const lock = (root: string) => readFileSync(path.join(root, "package-lock.json"), "utf8");
  const modules = path.join(dir, "node_modules");
  if (!existsSync(modules) && lock(dir) === lock(OURS)) symlinkSync(path.join(OURS, "node_modules"), modules);
  else if (!existsSync(modules))
    execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: dir, stdio: "inherit" });
  console.error(`building the base (${refOrDir}, ${commit.slice(0, 12)}) in ${dir}`);
  execFileSync("npm", ["run", "-s", "build"], { cwd: dir, stdio: "inherit" });
  return dir;
}

/** A module of the tree at `root` (its build), loaded by path: a run of a benchmark in that tree. */
export const loadFromTree = async <T>(root: string, file: string) =>
  (await import(pathToFileURL(path.join(root, "dist/src", file)).href)) as T;
