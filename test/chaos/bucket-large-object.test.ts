import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { s3Env, useBucket } from "../support/bucket.ts";
import type { VcwProcess } from "../support/cli.ts";
import { phoneOf, waitFor } from "../support/daemon.ts";
import { useSimulator } from "../support/simulator.ts";
import { chaosJob, copiesOf, keepLogs, killAll, phonesOn, untilContacts } from "./chaos-setup.ts";

/** A process's peak resident memory so far (VmHWM), in MB. */
const peakRssMb = (pid: number) =>
  Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

/** Two columns vcw does not read, each under the 10,000 characters a cell may have: 16 kB a row. */
const PAD = Array.from({ length: 2 }, () => "x".repeat(8_000)).join(",");
/** About 200 MB of contacts: `rows` distinct phones, each row padded. */
function bigCsv(rows: number): Buffer {
  const lines = ["Phone,First Name,Filler 1,Filler 2"];
  for (let i = 0; i < rows; i++) lines.push(`${phoneOf(500_000 + i).slice(2)},Contact ${i},${PAD}`);
  return Buffer.from(`${lines.join("\n")}\n`);
}

describe("chaos: a 200 MB object in a bucket inbox", () => {
  const t = useSimulator();
  const b = useBucket();
  const running: VcwProcess[] = [];
  afterAll(() => {
    keepLogs("bucket large object", running);
    killAll(running);
  });

  it("is imported with each daemon's memory under 300 MB; a daemon killed half-way is resumed by the next, each contact once", async () => {
    const bucket = await b.bucket();
    const rows = 13_200;
    const body = bigCsv(rows);
    expect(body.length).toBeGreaterThan(200 * 1024 * 1024);
    // Listings every 200 ms (not 10 s), so the test takes seconds. V8 sizes its heap from the
    // machine (24 GB here) and collects lazily: garbage alone takes a daemon past 300 MB. A 128 MB
    // old space and 2 MB semi-spaces, as a container's memory limit gives Node, show what the import
    // holds: were it to grow with the object, the daemon would run out of heap. (With a 160 MB old
    // space and default semi-spaces the peak was 247-303 MB over runs: the margin was garbage's.)
    const job = await chaosJob(t.sim, running, {
      inbox: `s3://${bucket}/big/`,
      env: {
        ...s3Env(),
        VCW_BUCKET_SCAN_MS: "200",
        VCW_RATE_LIMIT: "2000",
        NODE_OPTIONS: "--max-old-space-size=128 --max-semi-space-size=2",
      },
    });
    const started = performance.now();
    const first = job.start("start");
    await b.put(bucket, "big/export.csv", body);
    await untilContacts(t.sim, job.segmentId, rows / 2, 90_000);
    const firstRss = peakRssMb(first.child.pid!);
    first.child.kill("SIGKILL");
    const settled = phonesOn(t.sim, job.segmentId).length;
    const firstMs = performance.now() - started;

    const resumedAt = performance.now();
    const second = job.start("worker");
    // Its first new contact: the object downloaded again and the settled rows read past.
    await waitFor(
      () => (phonesOn(t.sim, job.segmentId).length > settled + 50 ? true : undefined),
      60_000,
      "the resumed import's first new contacts",
    );
    const resumeMs = performance.now() - resumedAt;
    await waitFor(
      async () =>
        (await b.keys(bucket, "big/done/")).some((k) => k.endsWith("export.csv.summary.json"))
          ? true
          : undefined,
      90_000,
      "its summary in done/",
    );
    const secondRss = peakRssMb(second.child.pid!);
    console.log(
      `200 MB object: ${body.length} bytes, ${rows} rows; first daemon ${Math.round(firstMs)} ms to ${settled} contacts, peak RSS ${firstRss.toFixed(0)} MB; ` +
        `resumed daemon: first new contact after ${Math.round(resumeMs)} ms (download and re-read), peak RSS ${secondRss.toFixed(0)} MB`,
    );
    expect(copiesOf(t.sim, job.segmentId)).toEqual({ total: rows, distinct: rows });
    expect(firstRss).toBeLessThan(300);
    expect(secondRss).toBeLessThan(300);
    const summaryKey = (await b.keys(bucket, "big/done/")).find((k) =>
      k.endsWith("export.csv.summary.json"),
    )!;
    const summary = JSON.parse((await b.text(bucket, summaryKey))!);
    expect(summary).toMatchObject({ status: "imported", totals: { valid: rows } });
    expect(summary.resumedFrom).toBeGreaterThan(0);
  }, 240_000);
});
