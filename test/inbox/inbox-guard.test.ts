import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, inject, it } from "vitest";
import { loadJobs } from "../../src/config/load-jobs.ts";
import { candidacy } from "../../src/inbox/drop-folder.ts";
import { inboxProblem } from "../../src/inbox/inbox-guard.ts";
import { runCli, spawnVcw } from "../support/cli.ts";
import { waitFor } from "../support/daemon.ts";
import { tempDir, writeFixture } from "../support/files.ts";

describe("an inbox is a folder of its own", () => {
  const at = { cwd: "/srv/vcw/app", home: "/home/ops" };

  it.each([
    ["/", "shared folder"],
    ["/etc", "system folder (/etc)"],
    ["/usr/local/share/leads", "system folder (/usr)"],
    ["/var", "shared folder"],
    ["/tmp", "shared folder"],
    ["/home/ops", "home folder"],
    [".", "working directory or one of its parents"],
    ["..", "working directory or one of its parents"],
    ["/srv", "shared folder"],
    ["/srv/vcw", "working directory or one of its parents"],
  ])("refuses %s (%s)", (inbox, why) => {
    expect(inboxProblem(inbox, at)).toContain(why);
  });

  it.each([
    ["inbox/leads"],
    ["/srv/vcw/app/inbox/leads"],
    ["/var/lib/vcw/inbox"],
    ["/home/ops/inbox"],
    ["/tmp/vcw-inbox"],
  ])("accepts %s", (inbox) => {
    expect(inboxProblem(inbox, at)).toBeUndefined();
  });

  it("refuses an inbox that overlaps another job's", () => {
    expect(inboxProblem("inbox/a/sub", { ...at, others: ["inbox/a"] })).toContain("another job");
    expect(inboxProblem("inbox", { ...at, others: ["inbox/a"] })).toContain("another job");
    expect(inboxProblem("inbox/b", { ...at, others: ["inbox/a"] })).toBeUndefined();
  });

  it("a job with inbox /etc is not loaded, and vcw jobs check names the file, line and why", async () => {
    const dir = tempDir("vcw-jobs-");
    writeFixture(dir, "etc.yaml", "name: etc\nsegment: { id: seg_1 }\ninbox: /etc\n");
    writeFixture(dir, "ok.yaml", "name: ok\ninbox: inbox/ok\nsegment: { id: seg_1 }\n");
    const { jobs, problems } = await loadJobs(dir);
    expect(jobs.map((j) => j.job.name)).toEqual(["ok"]);
    expect(problems).toEqual([
      expect.objectContaining({ file: join(dir, "etc.yaml"), path: "inbox", line: 3 }),
    ]);
    const check = await runCli(["jobs", "check", dir]);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`${join(dir, "etc.yaml")}:3: inbox: /etc is a system folder`);
  });

  it("the daemon leaves a parent folder alone: with inbox .. it moves nothing", async () => {
    const root = tempDir("vcw-parent-");
    const work = join(root, "work");
    mkdirSync(join(work, "jobs"), { recursive: true });
    writeFileSync(join(root, "precious.csv"), "Phone\n+14155550101\n");
    writeFileSync(join(work, "jobs", "greedy.yaml"), "name: greedy\ninbox: ..\nsegment: { name: s }\n");
    const check = await runCli(["jobs", "check", "jobs"], {}, 30_000, work);
    expect(check.stderr).toContain("is the working directory or one of its parents");
    const daemon = spawnVcw(
      ["start"],
      {
        REDIS_URL: inject("redisUrl"),
        VCW_PREFIX: `vcw-test-${randomBytes(4).toString("hex")}`,
        VCS_BASE_URL: "",
      },
      work,
    );
    try {
      await waitFor(() => (daemon.logs().includes("no valid job definition") ? true : undefined), 20_000);
      await sleep(1_500);
    } finally {
      daemon.child.kill("SIGTERM");
      await daemon.exited;
    }
    expect(daemon.logs()).toContain("is the working directory or one of its parents");
    expect(readdirSync(root).sort()).toEqual(["precious.csv", "work"]);
  });

  it("only contact files are candidates; other files are foreign, temporary ones skipped", () => {
    expect(["a.csv", "B.TSV", "c.txt", "d.xlsx"].map(candidacy)).toEqual(Array(4).fill("contacts"));
    expect(["passwd", "notes.pdf", "run.sh", "x.csv.gz"].map(candidacy)).toEqual(Array(4).fill("foreign"));
    expect(
      [".hidden.csv", "a.csv.part", "a.csv~", "a.csv.errors.csv", "a.csv.summary.json"].map(candidacy),
    ).toEqual(Array(5).fill("skip"));
  });
});
