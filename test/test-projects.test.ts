import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createVitest } from "vitest/node";

/**
 * vitest.config.ts splits the tests into six projects by path. This asks vitest which files each
 * project runs and checks the split: every test file in exactly one project, and each where it
 * belongs by what it reaches (itself and the test/ modules it imports): Chromium (test/support/
 * browser.ts) for browser, Redis or a child process for redis, neither for unit.
 */
const ROOT = resolve(import.meta.dirname, "..");
const TEST = join(ROOT, "test");
const PROJECTS = ["unit", "slow", "redis", "browser", "chaos", "defaults"];
/** Pure tests kept out of the quick run for their length: they belong with unit by what they reach. */
const LIKE_UNIT = new Set(["unit", "slow"]);
const BROWSER = join(TEST, "support", "browser.ts");
/** What a test that uses Redis or starts a process reaches (this file names them, and is neither). */
const REDIS_OR_PROCESS =
  /inject\(|new (Redis|Cluster)\(|startRedisServer|connectRedis|child_process|testcontainers/;

const allTestFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return allTestFiles(path);
    return entry.name.endsWith(".test.ts") ? [relative(ROOT, path)] : [];
  });

/** The file and every test/ module it imports, directly or not. */
function reached(file: string): string[] {
  const seen = new Set([resolve(ROOT, file)]);
  const todo = [...seen];
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    const text = readFileSync(next, "utf8");
    for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)) {
      const path = resolve(dirname(next), spec ?? "");
      if (!path.startsWith(TEST) || seen.has(path) || !existsSync(path)) continue;
      seen.add(path);
      todo.push(path);
    }
  }
  return [...seen];
}

async function filesByProject(): Promise<Map<string, string[]>> {
  const vitest = await createVitest("test", { config: join(ROOT, "vitest.config.ts"), watch: false });
  try {
    const byProject = new Map<string, string[]>();
    for (const project of vitest.projects) {
      const { testFiles } = await project.globTestFiles();
      byProject.set(project.name, testFiles.map((path) => relative(ROOT, path)).sort());
    }
    return byProject;
  } finally {
    await vitest.close();
  }
}

describe("the test projects", async () => {
  const byProject = await filesByProject();
  const self = relative(ROOT, import.meta.filename);

  it("are unit, slow, redis, browser, chaos and defaults", () => {
    expect([...byProject.keys()].sort()).toEqual([...PROJECTS].sort());
  });

  it("hold every test file exactly once", () => {
    const listed = [...byProject.values()].flat().sort();
    expect(listed).toEqual(allTestFiles(TEST).sort());
  });

  it("put each file where what it reaches says", () => {
    const misplaced: string[] = [];
    for (const [project, files] of byProject) {
      for (const file of files) {
        const paths = reached(file);
        const browser = paths.includes(BROWSER);
        const redis = paths.some((path) => REDIS_OR_PROCESS.test(readFileSync(path, "utf8")));
        // What the README promises, run as a user runs it (test/support/clean-env.ts): by its folder.
        const belongs = file.startsWith("test/chaos/")
          ? "chaos"
          : file.startsWith("test/defaults/")
            ? "defaults"
            : browser
              ? "browser"
              : redis && file !== self
                ? "redis"
                : "unit";
        if (belongs !== project && !(LIKE_UNIT.has(belongs) && LIKE_UNIT.has(project)))
          misplaced.push(`${file}: in ${project}, belongs in ${belongs}`);
      }
    }
    expect(misplaced).toEqual([]);
  });
});
