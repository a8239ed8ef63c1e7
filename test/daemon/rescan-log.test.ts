import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliEnv, runCli, spawnVcw, type VcwProcess } from "../support/cli.ts";
import { contactsCsv, drop, waitFor, writeJob } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { useSimulator } from "../support/simulator.ts";

const running: VcwProcess[] = [];
afterEach(async () => {
  for (const p of running.splice(0)) {
    if (p.child.exitCode === null) p.child.kill("SIGTERM");
    await p.exited;
  }
});

describe("a file waiting in processing/ across rescans", () => {
  const t = useSimulator();

  it("is said admitted once at info, not at every rescan", async () => {
    const home = tempDir("vcw-rescan-log-");
    const inbox = join(home, "inbox");
    writeJob(join(home, "jobs"), "waits", inbox);
    // At debug: a rescan that finds the file again says so there, so the test sees the rescans.
    const env = cliEnv(home, t.sim.url, { VCW_STABLE_MS: "100", VCW_RESCAN_MS: "300", LOG_LEVEL: "debug" });
    // Paused: the file is admitted and queued but not imported, so it stays in processing/.
    expect((await runCli(["pause", "waits"], env)).code).toBe(0);
    const daemon = spawnVcw(["start"], env);
    running.push(daemon);
    await waitFor(() => (daemon.logs().includes("daemon running") ? true : undefined), 30_000, "the daemon");
    drop(inbox, "people.csv", contactsCsv(3));
    const processing = join(inbox, "processing");
    await waitFor(
      () =>
        existsSync(processing) && readdirSync(processing).some((n) => n.endsWith("people.csv"))
          ? true
          : undefined,
      10_000,
      "the file in processing/",
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${JSON.stringify(readdirSync(inbox, { recursive: true }))}`);
    });
    // "file admitted" lines, at a level or any: the first admission, then each rescan that found it again.
    const admitted = (level?: number) =>
      daemon
        .logs()
        .split("\n")
        .filter(
          (l) => l.includes('"file admitted"') && (level === undefined || l.includes(`"level":${level},`)),
        ).length;
    // Five rescans at least found it again (one every 300 ms).
    await waitFor(() => (admitted() >= 6 ? true : undefined), 20_000, "five rescans of processing/");
    // Before, every rescan said it again at info (6 or more lines here).
    expect(admitted(30)).toBe(1);
    // Its import waits in the delayed set: a wait, not a lost lock (before: warned and failed every 5 s).
    expect(daemon.logs()).not.toContain("lost its lock");
    expect(daemon.logs()).not.toContain("worker error");
  }, 60_000);
});
