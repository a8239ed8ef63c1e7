import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { estimateRows } from "../../src/cli/progress-bar.ts";
import { runCli, VCW } from "../support/cli.ts";
import { contactsCsv } from "../support/daemon.ts";
import { tempDir, writeFixture } from "../support/files.ts";
import { API_KEY } from "../support/fixtures.ts";
import { useSimulator } from "../support/simulator.ts";

const run = promisify(execFile);

/** Runs `vcw ARGS` on a pseudo-terminal (util-linux `script`), as a person at a terminal would. */
async function onTerminal(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const command = [process.execPath, ...VCW, ...args].map((a) => `'${a}'`).join(" ");
  const { stdout } = await run("script", ["-qec", command, "/dev/null"], {
    env: { ...process.env, ...env, COLUMNS: "160" },
    timeout: 30_000,
  });
  return stdout;
}

describe("progress on a terminal", () => {
  const t = useSimulator();

  it("vcw validate draws a bar that ends at the file's rows; piped, it prints what it did before", async () => {
    const dir = tempDir("vcw-bar-");
    const file = writeFixture(dir, "big.csv", contactsCsv(3_000, { extra: ["12,Too Short,a@example.com"] }));
    const screen = await onTerminal(["validate", file, "--country", "US"]);
    expect(screen).toMatch(/validating .*100% \| 3001\/3001 rows/);
    expect(screen).toContain("rows       3001 = 3000 valid + 1 rejected");

    const piped = await runCli(["validate", file, "--country", "US"]);
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe("");
    expect(piped.stdout).not.toContain("validating");
    const json = await onTerminal(["validate", file, "--country", "US", "--json"]);
    expect(json).not.toContain("validating");
  });

  it("vcw import draws rows with the contacts created and known", async () => {
    const dir = tempDir("vcw-bar-");
    const file = writeFixture(dir, "leads.csv", contactsCsv(300, { from: 40_000 }));
    const env = {
      REDIS_URL: inject("redisUrl"),
      VCS_BASE_URL: t.sim.url,
      VCS_API_KEY: API_KEY,
      VCW_PREFIX: `vcw-test-${randomBytes(4).toString("hex")}`,
      VCW_HOME: join(dir, ".vcw"),
    };
    const screen = await onTerminal(
      ["import", file, "--country", "US", "--segment", `bar-${randomBytes(3).toString("hex")}`],
      env,
    );
    expect(screen).toMatch(/leads\.csv .*100% \| 300\/300 rows \| 300 created \| 0 known/);
    expect(screen).toContain("300 created, 0 already there");
  });

  it("estimates rows from line ends, whichever a file uses", async () => {
    const dir = tempDir("vcw-bar-");
    expect(await estimateRows(writeFixture(dir, "lf.csv", "Phone\n1\n2\n3\n"))).toBe(3);
    expect(await estimateRows(writeFixture(dir, "crlf.csv", "Phone\r\n1\r\n2\r\n"))).toBe(2);
    expect(await estimateRows(writeFixture(dir, "cr.csv", "Phone\r1\r2\r3\r4\r"))).toBe(4);
    expect(await estimateRows(writeFixture(dir, "empty.csv", ""))).toBe(0);
  });
});
