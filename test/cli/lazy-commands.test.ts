import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commandsNeeded } from "../../src/cli/main.ts";
import { runCli } from "../support/cli.ts";
import { tempDir, writeFixture } from "../support/files.ts";

// Records every package a run resolves from node_modules (tsx and esbuild: the checkout's runner).
const probe = join(tempDir("vcw-lazy-probe-"), "probe.mjs");
writeFileSync(
  probe,
  `import { registerHooks } from "node:module";
const seen = new Set();
registerHooks({ resolve(s, c, next) { const r = next(s, c); const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(r.url); if (m && !/^(tsx|esbuild|@esbuild)/.test(m[1])) seen.add(m[1]); return r; } });
process.on("exit", () => process.stderr.write("packages: " + [...seen].sort().join(",") + "\\n"));
`,
);

async function packagesOf(args: string[]): Promise<string[]> {
  const r = await runCli(args, { NODE_OPTIONS: `--import ${probe}`, OTEL_TRACES_EXPORTER: "" }, 60_000);
  expect(r.code, r.stderr).toBe(0);
  return /packages: (.*)/.exec(r.stderr)![1]!.split(",").filter(Boolean);
}

/** What only the daemon, reports and pages need. */
const HEAVY = [
  "bullmq",
  "fastify",
  "@bull-board/api",
  "vega",
  "vega-lite",
  "@resvg/resvg-js",
  "nodemailer",
  "pino",
  "prom-client",
];

describe("the CLI loads what a command uses", () => {
  it("vcw --version loads commander and nothing else", async () => {
    expect(await packagesOf(["--version"])).toEqual(["commander"]);
  }, 90_000);

  it("vcw validate and vcw api --help load none of the daemon's, the reports' or the pages' packages", async () => {
    const dir = tempDir("vcw-lazy-");
    const file = writeFixture(dir, "leads.csv", "Name,Phone\nAna,+14155550101\n");
    const validate = await packagesOf(["validate", file, "--country", "US"]);
    expect(validate).toContain("papaparse");
    expect(validate.filter((p) => HEAVY.includes(p))).toEqual([]);
    const api = await packagesOf(["api", "--help"]);
    expect(api).toContain("zod");
    expect(api.filter((p) => [...HEAVY, "ioredis"].includes(p))).toEqual([]);
  }, 90_000);

  it("help, completion and an unknown command still see every command", async () => {
    expect(commandsNeeded(["--version"])).toEqual([]);
    expect(commandsNeeded(["validate", "x.csv", "--json"])).toEqual(["validate"]);
    expect(commandsNeeded(["help", "report"])).toEqual(["report"]);
    for (const args of [[], ["--help"], ["-V", "--help"], ["completion", "bash"], ["no-such"], ["help"]])
      expect(commandsNeeded(args)).toBe("all");
    const help = await runCli(["--help"]);
    for (const name of ["start", "validate", "preview", "completion"])
      expect(help.stdout).toContain(`  ${name} `);
    const completion = await runCli(["completion", "bash"]);
    expect(completion.stdout).toMatch(/preview\) subs=""/);
  }, 90_000);
});
