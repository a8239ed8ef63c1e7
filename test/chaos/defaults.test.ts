import { afterAll, afterEach, describe, expect, it } from "vitest";
import { NO_FAULTS } from "../../src/simulator/faults.ts";
import type { VcwProcess } from "../support/cli.ts";
import { useSimulator } from "../support/simulator.ts";
import { copiesOf, keepLogs, killAll, pausedMidImport } from "./chaos-setup.ts";

/**
 * Issue 28's pause scenario once with the default settings (lease 45 s, job lock 30 s, stall check
 * every 30 s, settle time 60 s): the short test leases of the other chaos tests prove the protocol,
 * this proves the defaults an operator runs. `vcw start` is stopped 80 s, past its lease and lock.
 */
describe("chaos with the default settings", () => {
  const t = useSimulator();
  const running: VcwProcess[] = [];
  afterEach((ctx) => {
    keepLogs(ctx.task.name, running);
    killAll(running.splice(0));
    t.sim.setFaults(NO_FAULTS);
  });
  afterAll(() => t.sim.setFaults(NO_FAULTS));

  it("`vcw start` paused 80 s mid-import beside `vcw worker`, then resumed: 600 phones, 600 contacts", async () => {
    t.sim.setFaults({ ...NO_FAULTS, latencyMs: 20, jitterMs: 20 });
    const { job, summary } = await pausedMidImport(t.sim, running, {
      pauseMs: 80_000,
      from: 400_000,
      defaults: true,
      doneWithinMs: 150_000,
    });
    expect(copiesOf(t.sim, job.segmentId)).toEqual({ total: 600, distinct: 600 });
    expect(summary.status).toBe("imported");
    expect(summary.created + summary.known).toBe(600);
  }, 260_000);
});
