import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import type { StoredCampaign } from "../../src/simulator/store.ts";
import { spawnVcw, type VcwProcess } from "../support/cli.ts";
import { shortLeaseEnv, waitFor } from "../support/daemon.ts";
import {
  all,
  audiencePhones,
  callingHome,
  campaignClosingIn,
  useCallingSetup,
} from "../support/window-close.ts";
import { killAll, untilStopped } from "./chaos-setup.ts";

/**
 * Issue 28, a moment of the window-close path: the campaign's window closes, its uncalled people
 * are taken out and handed back to a campaign at the next opening; the daemon about to create that
 * hand-back is stopped (SIGSTOP at its fault point) past its lease and job lock while a second
 * daemon carries the work on, then resumed. One hand-back campaign, each person called at most
 * once over both, nobody left out, and the stop's record says so.
 */
describe("chaos: the daemon about to create a window-close hand-back, stopped past its lease", () => {
  const s = useCallingSetup("live");
  const running: VcwProcess[] = [];
  afterAll(() => killAll(running));

  it("one hand-back campaign; nobody called twice or left out; the stop's record names it", async () => {
    const home = callingHome(s.ref.assistant, s.ref.dialerId);
    const prefix = `vcw-test-${randomBytes(4).toString("hex")}`;
    const env = shortLeaseEnv(home.home, s.t.sim.url, prefix);
    const start = (role: "start" | "worker", more: NodeJS.ProcessEnv = {}) => {
      const p = spawnVcw([role], { ...env, ...more });
      running.push(p);
      return p;
    };
    const paused = start("start", { VCW_FAILPOINTS: "hand-back.before-create=stop@1" });
    await waitFor(() => (paused.logs().includes("vcw daemon running") ? true : undefined), 30_000, "running");
    const { sim, stops } = await campaignClosingIn(s, home, prefix, 8_000);
    await untilStopped(paused, 90_000);
    const other = start("worker");
    const name = await waitFor(async () => (await stops.get(sim.id))?.handedBackTo, 30_000, "its name");
    const handBacks = async () =>
      (await s.t.client.campaigns.list()).filter((c) => c.campaigns_name?.startsWith(name));
    await waitFor(
      async () => ((await handBacks()).length > 0 ? true : undefined),
      60_000,
      "the other daemon's hand-back",
    );
    paused.child.kill("SIGCONT");
    // A late create would land within the settle time (2 s).
    await sleep(5_000);
    const made = await handBacks();
    expect(made, paused.logs() + other.logs()).toHaveLength(1);

    const ended = await waitFor(
      async () => {
        const st = await stops.get(sim.id);
        return st?.honoured === "yes" ? st : undefined;
      },
      60_000,
      "the first campaign over",
    );
    expect(ended.handedBackTo).toBe(made[0]!.campaigns_name);
    const resumedSim = s.t.sim.store.get<StoredCampaign>("campaigns", made[0]!.id!);
    s.t.sim.clock.advance(resumedSim.startAt - s.t.sim.clock.now() + 3_600_000);
    const first = await audiencePhones(s.t.client, sim.id);
    const second = await audiencePhones(s.t.client, made[0]!.id!);
    // The record's count of those handed back is what the hand-back holds.
    expect(second).toHaveLength(ended.withdrawn - (ended.racedAtStop ?? 0));
    expect(new Set(second).size).toBe(second.length);
    expect(first.filter((p) => second.includes(p))).toEqual([]);
    expect([...first, ...second].sort()).toEqual([...all].sort());
  }, 180_000);
});
