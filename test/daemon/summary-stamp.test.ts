import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import {
  contactsCsv,
  drop,
  quietLogger,
  summaryOf,
  testSettings,
  waitFor,
  writeJob,
} from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { useSimulator } from "../support/simulator.ts";

/**
 * A report counts a file in the period its summary's finishedAt falls in. Stamped before the
 * listing and the campaigns (seconds against a slow service), a report gathered in between saw no
 * summary yet, and the next period began after the stamp: the file was in no report.
 */
describe("a file's summary", () => {
  const t = useSimulator({ faults: { latencyMs: 300 } });
  let daemon: Daemon | undefined;
  afterEach(async () => {
    await daemon?.close();
    daemon = undefined;
  });

  it("is stamped finished as it is written, after its listing", async () => {
    const home = tempDir("vcw-stamp-");
    const inbox = join(home, "inbox");
    mkdirSync(join(home, "jobs"));
    writeJob(join(home, "jobs"), "stamp", inbox);
    daemon = await startDaemon({
      settings: testSettings(home, t.sim.url),
      logger: quietLogger(),
      watch: true,
      work: true,
    });
    await daemon.ready;
    drop(inbox, "people.csv", contactsCsv(5));
    const summary = await waitFor(() => summaryOf(inbox, "people.csv"), 60_000, "the summary");
    const done = join(inbox, "done");
    const path = join(done, readdirSync(done).find((n) => n.endsWith("-people.csv.summary.json"))!);
    const written = statSync(path).mtimeMs;
    const stamped = Date.parse(String(JSON.parse(readFileSync(path, "utf8")).finishedAt));
    expect(summary.status).toBe("imported");
    // Before: stamped ahead of the segment's listing, at least one 300 ms answer before the write.
    // A file's mtime comes from the kernel's coarse clock (a tick, up to 10 ms, behind Date.now()).
    expect(written - stamped).toBeGreaterThanOrEqual(-50);
    expect(written - stamped).toBeLessThan(200);
  }, 90_000);
});
