import { afterAll, describe, expect, it } from "vitest";
import { s3Env, useBucket } from "../support/bucket.ts";
import type { VcwProcess } from "../support/cli.ts";
import { contactsCsv, waitFor } from "../support/daemon.ts";
import { useSimulator } from "../support/simulator.ts";
import { chaosJob, copiesOf, keepLogs, killAll, untilContacts, untilStopped } from "./chaos-setup.ts";

/** A bucket inbox's settings for the fleet: the suite's S3 server, and listings every 200 ms (not 10 s) so the test takes seconds. */
const bucketEnv = () => ({ ...s3Env(), VCW_BUCKET_SCAN_MS: "200" });

/** The summaries in done/ of imported files (not duplicates), by the name each arrived under. */
async function summaries(b: ReturnType<typeof useBucket>, bucket: string, prefix: string) {
  const keys = await b.keys(bucket, `${prefix}done/`);
  const out = new Map<string, { status: string; totals: { valid: number } }>();
  for (const key of keys.filter((k) => k.endsWith(".summary.json") && !k.includes("-dup"))) {
    const s = JSON.parse((await b.text(bucket, key))!);
    out.set(s.original, s);
  }
  return { keys, summaries: out };
}

describe("chaos: a fleet of workers sharing one bucket inbox", () => {
  const t = useSimulator();
  const b = useBucket();
  const running: VcwProcess[] = [];
  afterAll(() => killAll(running));

  it("two daemons and a vcw worker, one killed mid-import: 20 files of 500 rows, each contact once, each object in done/ with its summary", async () => {
    const bucket = await b.bucket();
    const job = await chaosJob(t.sim, running, {
      inbox: `s3://${bucket}/fleet/`,
      env: { ...bucketEnv(), VCW_RATE_LIMIT: "2000" },
    });
    const first = job.start("start");
    job.start("start");
    job.start("worker");
    for (let i = 0; i < 20; i++)
      await b.put(bucket, `fleet/export-${i}.csv`, contactsCsv(500, { from: 300_000 + i * 500 }));
    await untilContacts(t.sim, job.segmentId, 1_500);
    first.child.kill("SIGKILL");
    // It was importing when it died: its files are taken over by the others.
    expect(first.logs()).toMatch(/"msg":"(import started|resuming import)"/);
    const done = await waitFor(
      async () => {
        const s = await summaries(b, bucket, "fleet/");
        return s.summaries.size === 20 ? s : undefined;
      },
      110_000,
      "20 summaries in done/",
    ).catch((error: unknown) => {
      keepLogs("bucket fleet", running);
      throw error;
    });
    expect(copiesOf(t.sim, job.segmentId)).toEqual({ total: 10_000, distinct: 10_000 });
    for (const [name, s] of done.summaries) {
      expect(s.status, name).toBe("imported");
      expect(s.totals.valid, name).toBe(500);
    }
    // Summaries are written first, objects moved last.
    await waitFor(
      async () =>
        (await b.keys(bucket, "fleet/")).every((k) => k.startsWith("fleet/done/")) ? true : undefined,
      30_000,
      "every object moved",
    );
    // Each object in done/ beside its summary; nothing left where it arrived or in processing/.
    const moved = await b.keys(bucket, "fleet/done/");
    for (let i = 0; i < 20; i++) expect(moved.filter((k) => k.endsWith(`-export-${i}.csv`))).toHaveLength(1);
  }, 150_000);

  it("a worker killed mid-move (its copy in done/ made, the original in processing/ not yet deleted): the next finishes the move, nothing twice", async () => {
    const bucket = await b.bucket();
    const job = await chaosJob(t.sim, running, { inbox: `s3://${bucket}/moves/`, env: bucketEnv() });
    const moving = job.start("start", { VCW_FAILPOINTS: "bucket.after-copy=stop" });
    await b.put(bucket, "moves/leads.csv", contactsCsv(40, { from: 390_000 }));
    await untilStopped(moving);
    const halfway = await b.keys(bucket, "moves/");
    expect(halfway.filter((k) => k.startsWith("moves/processing/"))).toHaveLength(1);
    expect(halfway.filter((k) => k.startsWith("moves/done/") && k.endsWith("leads.csv"))).toHaveLength(1);
    moving.child.kill("SIGKILL");
    const next = job.start("worker");
    await waitFor(
      async () => ((await b.keys(bucket, "moves/processing/")).length === 0 ? true : undefined),
      60_000,
      "processing/ emptied",
    );
    const { summaries: s } = await summaries(b, bucket, "moves/");
    expect(s.get("leads.csv")?.status).toBe("imported");
    expect(copiesOf(t.sim, job.segmentId)).toEqual({ total: 40, distinct: 40 });
    expect((await b.keys(bucket, "moves/done/")).filter((k) => k.endsWith("leads.csv"))).toHaveLength(1);
    // It took the outcome the move had reached: the file was not imported again.
    expect(next.logs()).not.toMatch(/"msg":"(import started|resuming import)"/);
  }, 90_000);
});
