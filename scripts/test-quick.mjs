#!/usr/bin/env node
/**
 * `npm run test:quick [-- --since REF]`: the unit and store tests a change touches, for the loop
 * between edits. The change is what git sees against REF (default HEAD: staged, unstaged and new
 * files); vitest's `related` follows the imports from each changed source to the tests that reach
 * it. Daemons, the CLI, clusters, browsers, chaos and the package are left to `npm test`: they
 * take minutes, and they reach almost every file.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { since: { type: "string", default: "HEAD" } } });
const git = (...args) => execFileSync("git", args, { encoding: "utf8" }).split("\n").filter(Boolean);

const changed = [
  ...new Set([
    ...git("diff", "--name-only", values.since),
    ...git("ls-files", "--others", "--exclude-standard"),
  ]),
].filter((f) => /^(src|test|bench)\/.*\.ts$/.test(f) && existsSync(f));

if (changed.length === 0) {
  console.log(`test:quick: no TypeScript changed since ${values.since}: nothing to run`);
  process.exit(0);
}
console.log(`test:quick: ${changed.length} changed file(s) since ${values.since}: ${changed.join(", ")}`);

// The redis project leaves out what starts processes (vitest.config.ts reads VCW_TEST_QUICK).
const vitest = spawnSync(
  "npx",
  ["vitest", "related", "--run", "--project", "unit", "--project", "redis", "--passWithNoTests", ...changed],
  { stdio: "inherit", env: { ...process.env, VCW_TEST_QUICK: "1" } },
);
process.exit(vitest.status ?? 1);
