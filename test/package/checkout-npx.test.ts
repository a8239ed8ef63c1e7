import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/files.ts";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));

/** The shell of someone in the checkout: the machine's own PATH, without the checkout's node_modules/.bin. */
const machineEnv = () => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  env.PATH = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((p) => !p.includes("node_modules"))
    .join(delimiter);
  return env;
};

const machineNode = await run("node", ["--version"], { env: machineEnv() }).then(
  (r) => r.stdout.trim(),
  () => "",
);
const older = (v: string) => {
  const [major = 0, minor = 0] = v.replace(/^v/, "").split(".").map(Number);
  return major < 22 || (major === 22 && minor < 22);
};

describe("npx vcw in a checkout, from the machine's own npm", () => {
  // The case the warning appeared in: npm running on a Node older than `engines` (vcw itself runs
  // on the node@22 dev dependency). On a machine whose Node is recent there is nothing to see.
  // npx installs the checkout into its cache on the first run (a fresh clone, a fresh HOME): that
  // install is where npm compared `engines` with its own Node and warned, twice.
  it.skipIf(!machineNode || !older(machineNode))(
    `prints the version and no EBADENGINE block, first run included (machine Node ${machineNode})`,
    async () => {
      const env = { ...machineEnv(), npm_config_cache: join(tempDir("vcw-npx-cache-"), "npm") };
      for (const run_ of ["first", "second"]) {
        const r = await run("npx", ["vcw", "--version"], { cwd: ROOT, env, timeout: 120_000 });
        expect(`${run_}: ${r.stdout.trim()}`).toBe(`${run_}: ${version}`);
        expect(r.stderr).not.toMatch(/EBADENGINE|Unsupported engine/);
        expect(r.stderr).toBe("");
      }
    },
    150_000,
  );

  it.skipIf(!machineNode || !older(machineNode))(
    "the machine's older Node running bin/vcw.js itself is told which Node vcw runs on, and how",
    async () => {
      const r = await run("node", ["bin/vcw.js", "--version"], { cwd: ROOT, env: machineEnv() }).catch(
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
      expect(r).toMatchObject({ code: 1, stdout: "" });
      expect(r.stderr).toContain(
        `vcw: it runs on Node 22.22 or later, and this is Node ${machineNode.slice(1)}`,
      );
      expect(r.stderr).toContain("`npx vcw`");
    },
  );
});
