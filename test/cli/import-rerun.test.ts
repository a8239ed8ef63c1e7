import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliEnv, runCli, spawnVcw } from "../support/cli.ts";
import { contactsCsv, waitFor, writeJob } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { useSimulator } from "../support/simulator.ts";

/** Issue 17, item 4: a second `vcw import` of one file replaces its own report, never a foreign file. */
describe("vcw import run again on the same file", () => {
  const t = useSimulator();

  const importArgs = (file: string, segment: string) => [
    "import",
    file,
    "--segment",
    segment,
    "--country",
    "US",
    "--json",
  ];

  it("twice in a row: the second run exits 0 and replaces the report vcw wrote", async () => {
    const home = tempDir("vcw-rerun-");
    const env = cliEnv(home, t.sim.url);
    const file = join(home, "people.csv");
    writeFileSync(file, contactsCsv(4, { from: 100, extra: ["12,Too Short,"] }));
    const segment = `rerun-${randomBytes(3).toString("hex")}`;
    const first = await runCli(importArgs(file, segment), env);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ created: 4, errorsFile: `${file}.errors.csv` });

    // The file gets a second bad row: the new report says so, so it was replaced, not kept.
    writeFileSync(file, contactsCsv(4, { from: 100, extra: ["12,Too Short,", "34,Also Short,"] }));
    const second = await runCli(importArgs(file, segment), env);
    expect(second.stderr).toBe("");
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ created: 0, known: 4, totals: { rejected: 2 } });
    const report = readFileSync(`${file}.errors.csv`, "utf8");
    expect(report).toContain("Too Short");
    expect(report).toContain("Also Short");
  }, 120_000);

  it("a file vcw did not write is never overwritten: the import is refused, naming it", async () => {
    const home = tempDir("vcw-rerun-");
    const env = cliEnv(home, t.sim.url);
    const file = join(home, "people.csv");
    writeFileSync(file, contactsCsv(3, { from: 200, extra: ["12,Too Short,"] }));
    const notes = "my own notes about people.csv\n";
    writeFileSync(`${file}.errors.csv`, notes);
    // Even a CSV that merely looks like a report, with other columns, is not vcw's report of this input.
    const custom = join(home, "elsewhere.csv");
    writeFileSync(custom, "row_number,field,value,error_code,message\r\n1,phone,x,bad,hand-written\r\n");
    const segment = `rerun-${randomBytes(3).toString("hex")}`;
    const refused = await runCli(importArgs(file, segment), env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${file}.errors.csv already exists and was not written by vcw`);
    expect(readFileSync(`${file}.errors.csv`, "utf8")).toBe(notes);
    const refusedCustom = await runCli([...importArgs(file, segment), "--errors", custom], env);
    expect(refusedCustom.code).toBe(2);
    expect(refusedCustom.stderr).toContain(`${custom} already exists and was not written by vcw`);
    expect((await t.client.segments.list()).some((s) => s.name === segment)).toBe(false);
    // --force still overwrites, as documented.
    const forced = await runCli([...importArgs(file, segment), "--force"], env);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(`${file}.errors.csv`, "utf8")).toContain("Too Short");
  }, 120_000);

  it("twice beside a running daemon on the same Redis: both runs succeed", async () => {
    const home = tempDir("vcw-rerun-");
    const env = cliEnv(home, t.sim.url);
    writeJob(join(home, "jobs"), "beside", join(home, "inbox"), `beside-${randomBytes(3).toString("hex")}`);
    const daemon = spawnVcw(["start"], env);
    try {
      await waitFor(() => (daemon.logs().includes("daemon running") ? true : undefined), 60_000, "daemon up");
      const file = join(home, "people.csv");
      writeFileSync(file, contactsCsv(3, { from: 300, extra: ["12,Too Short,"] }));
      const segment = `rerun-${randomBytes(3).toString("hex")}`;
      for (const expected of [{ created: 3 }, { created: 0, known: 3 }]) {
        const run = await runCli(importArgs(file, segment), env);
        expect(run.code, run.stderr).toBe(0);
        expect(JSON.parse(run.stdout)).toMatchObject(expected);
      }
    } finally {
      daemon.child.kill("SIGTERM");
      await daemon.exited;
    }
  }, 120_000);
});
