import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { findReport, reportText } from "../../src/http/report-file.ts";
import { folderOf } from "../../src/queue/read-model/job-views.ts";
import { s3Env, useBucket } from "../support/bucket.ts";
import { runCli } from "../support/cli.ts";
import { contactsCsv, quietLogger, testSettings, waitFor, writeJob } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { captureLogs } from "../support/log-capture.ts";
import { useSimulator } from "../support/simulator.ts";

describe("a bucket inbox, watched by a daemon on real Redis against the simulator", () => {
  const t = useSimulator();
  const b = useBucket();
  let home: string;
  let daemon: Daemon | undefined;

  beforeEach(() => {
    home = tempDir("vcw-bucket-");
  });
  afterEach(async () => {
    await daemon?.close();
    daemon = undefined;
  });

  /** A daemon of one job reading `inbox`; listings every 100 ms (not 10 s) so the test takes seconds. */
  const start = async (inbox: string, logger = quietLogger()) => {
    writeJob(join(home, "jobs"), "crm", inbox, `crm-${home.slice(-6)}`);
    daemon = await startDaemon({
      settings: testSettings(home, t.sim.url, { ...s3Env(), VCW_BUCKET_SCAN_MS: "100" }),
      logger,
      watch: true,
      work: true,
    });
    await daemon.ready;
    return daemon;
  };
  const summaryKey = async (bucket: string, prefix: string, original: string) =>
    (await b.keys(bucket, `${prefix}done/`)).find(
      (k) => k.endsWith(`-${original}.summary.json`) && !k.includes("-dup"),
    );

  it("an uploaded file is imported once, moved to done/ with its summary and error report; the dashboard serves them", async () => {
    const bucket = await b.bucket();
    const d = await start(`s3://${bucket}/crm/`);
    await b.put(
      bucket,
      "crm/leads.csv",
      contactsCsv(8, { from: 800, extra: ["not a phone,Nobody,x@example.com"] }),
    );
    const key = await waitFor(() => summaryKey(bucket, "crm/", "leads.csv"), 30_000, "leads.csv in done/");
    const summary = JSON.parse((await b.text(bucket, key))!);
    expect(summary).toMatchObject({
      status: "imported",
      original: "leads.csv",
      totals: { valid: 8, rejected: 1 },
    });
    expect(summary.errorsFile).toMatch(new RegExp(`^s3://${bucket}/crm/done/.*-leads\\.csv\\.errors\\.csv$`));
    // The summary is written first, the object moved last.
    const keys = await waitFor(
      async () => {
        const all = await b.keys(bucket, "crm/");
        return all.every((k) => k.startsWith("crm/done/")) ? all : undefined;
      },
      30_000,
      "leads.csv moved",
    );
    const name = key.slice("crm/done/".length, -".summary.json".length);
    expect(keys).toEqual([
      `crm/done/${name}`,
      `crm/done/${name}.errors.csv`,
      `crm/done/${name}.summary.json`,
    ]);
    const phones = t.sim.store.contactsOf(summary.segment.id).map((c) => String(c.fields.phone));
    expect(phones).toHaveLength(8);
    expect(new Set(phones).size).toBe(8);
    // The dashboard's link to the error report reads it from the bucket, phones masked.
    const report = await findReport(d.jobs, d.stores.inboxes, "crm", "done", `${name}.errors.csv`);
    expect(report?.kind).toBe("csv");
    expect(await reportText(report!, false)).toContain("not a phone");
  }, 60_000);

  it("vcw status and the dashboard count a bucket inbox like a folder; a file of another kind is told of once and left", async () => {
    const bucket = await b.bucket();
    const logs = captureLogs();
    const d = await start(`s3://${bucket}/in/`, logs.logger);
    await b.put(bucket, "in/notes.pdf", "%PDF-1.4");
    await waitFor(
      () => (logs.text().includes("not a contact file") ? true : undefined),
      10_000,
      "the warning",
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(logs.text().split("not a contact file").length - 1).toBe(1);
    expect(await folderOf(d.jobs.get("crm")!, d.stores.inboxes)).toEqual({
      job: "crm",
      inbox: `s3://${bucket}/in/`,
      waiting: 0,
      processing: 0,
    });
    const missing = await folderOf(
      { ...d.jobs.get("crm")!, inbox: "s3://vcw-not-a-bucket-here/in/" },
      d.stores.inboxes,
    );
    expect(missing.problem).toMatch(/NoSuchBucket/);
    expect(await b.keys(bucket, "in/")).toEqual(["in/notes.pdf"]);
  }, 30_000);

  it("vcw jobs check lists a bucket inbox; one that is not there fails the check with its file and a clear reason", async () => {
    const bucket = await b.bucket();
    const jobs = join(home, "jobs");
    writeJob(jobs, "crm", `s3://${bucket}/crm/`);
    const env = { ...s3Env(), VCW_JOBS_DIR: jobs };
    const ok = await runCli(["jobs", "check"], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`crm.yaml (crm: s3://${bucket}/crm/ -> segment`);
    writeJob(jobs, "gone", "s3://vcw-no-such-bucket-anywhere/in/");
    const bad = await runCli(["jobs", "check"], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/fail \S*gone\.yaml.*inbox.*the bucket does not exist at .*\(NoSuchBucket\)/);
    // Keys the store does not know are refused plainly, and never printed (s3rver checks the key id
    // only; MinIO the signature too).
    const wrong = await runCli(["jobs", "check"], {
      ...env,
      AWS_ACCESS_KEY_ID: "AKIAWRONGKEY0000",
      AWS_SECRET_ACCESS_KEY: "wrong-secret-9f8e7d",
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/refused the credentials \((SignatureDoesNotMatch|InvalidAccessKeyId)\)/);
    expect(wrong.stderr + wrong.stdout).not.toMatch(/wrong-secret-9f8e7d|AKIAWRONGKEY0000/);
  }, 60_000);

  it("two jobs can't share overlapping prefixes: the second is refused, naming the first", async () => {
    const bucket = await b.bucket();
    const jobs = join(home, "jobs");
    writeJob(jobs, "a", `s3://${bucket}/crm/`);
    writeJob(jobs, "b", `s3://${bucket}/crm/vip/`);
    const r = await runCli(["jobs", "check"], { ...s3Env(), VCW_JOBS_DIR: jobs });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`overlaps the inbox of another job (s3://${bucket}/crm/)`);
  }, 30_000);

  it("two uploads of the same contacts under two names: each phone once in the segment", async () => {
    const bucket = await b.bucket();
    await b.put(bucket, "x/a.csv", contactsCsv(20, { from: 900 }));
    // Other content (one more row, not a contact): not a duplicate of a.csv.
    await b.put(
      bucket,
      "x/b.csv",
      contactsCsv(20, { from: 900, extra: ["not a phone,Nobody,n@example.com"] }),
    );
    await start(`s3://${bucket}/x/`);
    const a = await waitFor(() => summaryKey(bucket, "x/", "a.csv"), 30_000, "a.csv");
    const bKey = await waitFor(() => summaryKey(bucket, "x/", "b.csv"), 30_000, "b.csv");
    const sa = JSON.parse((await b.text(bucket, a))!);
    const sb = JSON.parse((await b.text(bucket, bKey))!);
    // The same contacts under two names: one created them, the other found them there.
    expect(sa.created + sb.created).toBe(20);
    const phones = t.sim.store.contactsOf(sa.segment.id).map((c) => String(c.fields.phone));
    expect(phones).toHaveLength(20);
    expect(new Set(phones).size).toBe(20);
  }, 60_000);
});
