import { afterAll, afterEach, describe, expect, it } from "vitest";
import { NO_FAULTS } from "../../src/simulator/faults.ts";
import type { VcwProcess } from "../support/cli.ts";
import { contactsCsv, drop, summaryOf, waitFor } from "../support/daemon.ts";
import { useSimulator } from "../support/simulator.ts";
import { chaosJob, copiesOf, keepLogs, pausedMidImport } from "./chaos-setup.ts";

/**
 * Timing alone, no crash (issue 28's table): answers later than the client waits, a rate limit
 * that keeps creates in the gate and the 429 loop, a daemon paused past its lease. Each phone once
 * on the service, and the summary says so.
 */
describe("chaos: timing alone never makes a second contact", () => {
  const t = useSimulator();
  const running: VcwProcess[] = [];
  afterEach((ctx) => {
    keepLogs(ctx.task.name, running);
    for (const p of running.splice(0)) p.child.kill("SIGKILL");
    t.sim.setFaults(NO_FAULTS);
  });
  afterAll(() => t.sim.setFaults(NO_FAULTS));

  it("the service answers after the client's timeout: 600 phones, 600 contacts", async () => {
    t.sim.setFaults({ ...NO_FAULTS, latencyMs: 100, jitterMs: 2_500 });
    const job = await chaosJob(t.sim, running, {
      env: { VCW_RATE_LIMIT: "200", VCW_MAX_RETRIES: "2", VCW_IMPORT_ATTEMPTS: "10" },
      concurrency: 32,
    });
    job.start("start");
    drop(job.inbox, "late.csv", contactsCsv(600, { from: 100_000 }));
    const summary = await waitFor(() => summaryOf(job.inbox, "late.csv"), 110_000, "late.csv done");
    expect(copiesOf(t.sim, job.segmentId)).toEqual({ total: 600, distinct: 600 });
    expect(summary.status).toBe("imported");
    expect(summary.totals.valid).toBe(600);
    expect(summary.created).toBe(600);
  }, 120_000);

  it("two files of one job with the same 100 phones, the service limited to 4 requests/s: 100 contacts", async () => {
    t.sim.setFaults({ ...NO_FAULTS, rateLimit: 4 });
    const job = await chaosJob(t.sim, running, { env: { VCW_RATE_LIMIT: "30" } });
    job.start("start");
    drop(job.inbox, "one.csv", contactsCsv(100, { from: 200_000 }));
    // The same phones in the other order: a different file, not a duplicate drop.
    const [header, ...rows] = contactsCsv(100, { from: 200_000 }).trim().split("\n");
    drop(job.inbox, "two.csv", `${[header, ...rows.reverse()].join("\n")}\n`);
    const started = Date.now();
    const one = await waitFor(() => summaryOf(job.inbox, "one.csv"), 100_000, "one.csv done");
    const two = await waitFor(
      () => summaryOf(job.inbox, "two.csv"),
      105_000 - (Date.now() - started),
      "two.csv done",
    );
    expect(copiesOf(t.sim, job.segmentId)).toEqual({ total: 100, distinct: 100 });
    expect(one.created + two.created).toBe(100);
  }, 120_000);

  it("`vcw start` paused (SIGSTOP) past its lease mid-import while `vcw worker` carries on, then resumed: 600", async () => {
    t.sim.setFaults({ ...NO_FAULTS, latencyMs: 20, jitterMs: 20 });
    // Lease 2.5 s, job lock 1 s: both long gone when it wakes with its creates in flight.
    const { job, summary } = await pausedMidImport(t.sim, running, {
      pauseMs: 8_000,
      from: 300_000,
      doneWithinMs: 90_000,
    });
    expect(copiesOf(t.sim, job.segmentId)).toEqual({ total: 600, distinct: 600 });
    expect(summary.status).toBe("imported");
  }, 120_000);
});
