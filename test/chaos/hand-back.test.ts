import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { Job, Queue } from "bullmq";
import { afterAll, describe, expect, it } from "vitest";
import type { CampaignStop } from "../../src/pipeline/stores/stop-store.ts";
import { startCheckJobId } from "../../src/queue/job-ids.ts";
import { QUEUE_NAMES, queuePrefix } from "../../src/queue/queues.ts";
import type { StoredCampaign } from "../../src/simulator/store.ts";
import { spawnVcw, type VcwProcess } from "../support/cli.ts";
import { shortLeaseEnv, waitFor } from "../support/daemon.ts";
import type { TestServer } from "../support/http-server.ts";
import { campaignCreateWith, heldUntilNext, startProxy } from "../support/proxy.ts";
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
describe("chaos: a window-close hand-back's create: its daemon stopped past its lease, or its request held", () => {
  const s = useCallingSetup("live");
  const running: VcwProcess[] = [];
  const proxies: TestServer[] = [];
  afterAll(async () => {
    killAll(running);
    for (const p of proxies) await p.close();
  });
  /** The first campaign's stop record once the service honoured it (the campaign over). */
  const firstOver = (stops: { get: (id: string) => Promise<CampaignStop | undefined> }, id: string) =>
    waitFor(
      async () => {
        const st = await stops.get(id);
        return st?.honoured === "yes" ? st : undefined;
      },
      60_000,
      "the first campaign over",
    );
  /** `vcw start` with these settings, once it runs. */
  const startedWith = async (env: NodeJS.ProcessEnv) => {
    const p = spawnVcw(["start"], env);
    running.push(p);
    await waitFor(() => (p.logs().includes("vcw daemon running") ? true : undefined), 30_000, "running");
    return p;
  };

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

    const ended = await firstOver(stops, sim.id);
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

  /**
   * Issue 42 item 4: the held create of late-copy.test.ts, for a window-close hand-back. A request
   * queue holds the hand-back's first campaign create until vcw's re-sent one has gone through (past
   * the settle time), then forwards it. A hand-back starts at its window's next opening (tomorrow
   * here), so the late copy lands before its start: two copies, neither started. Its check (run now:
   * its job promoted, as it would run before the opening) finds both, empties their segment and files
   * the people into a fresh campaign; once the service's clock passes the opening, each person handed
   * back is called once, by the fresh campaign.
   */
  it("two copies, neither started; the check repairs them and each person is called at most once", async () => {
    // The test before moved the service's clock a day on: back to real time, as vcw's.
    s.t.sim.clock.advance(Date.now() - s.t.sim.clock.now());
    const requestQueue = heldUntilNext(campaignCreateWith(" resumed "));
    const proxy = await startProxy(s.t.sim.url, requestQueue.rule);
    const home = callingHome(s.ref.assistant, s.ref.dialerId);
    const prefix = `vcw-test-${randomBytes(4).toString("hex")}`;
    // Timeout 1 s, settle 2 s (shortLeaseEnv): the re-send comes a few seconds after the first send.
    proxies.push(proxy);
    const daemon = await startedWith(shortLeaseEnv(home.home, proxy.url, prefix));
    const { sim, stops, keys } = await campaignClosingIn(s, home, prefix, 8_000);
    const name = await waitFor(async () => (await stops.get(sim.id))?.handedBackTo, 60_000, "its name");
    const named = async () =>
      (await s.t.client.campaigns.list()).filter((c) => c.campaigns_name?.startsWith(name));
    const copies = await waitFor(
      async () => {
        const listed = (await named()).filter((c) => c.campaigns_name === name);
        return listed.length === 2 ? listed : undefined;
      },
      90_000,
      "both copies of the hand-back",
    );
    expect(copies.every((c) => !c.is_started)).toBe(true);

    // The copy vcw registered has its check queued before its start; run it now.
    const registered = await waitFor(async () => {
      for (const c of copies) if (await s.redis.exists(keys.campaign.meta(c.id!))) return c;
      return undefined;
    }, 30_000);
    const queue = new Queue(QUEUE_NAMES.followUps, {
      connection: s.redis,
      prefix: queuePrefix(keys, "followUps"),
    });
    const check = await Job.fromId(queue, startCheckJobId(registered.id!));
    const opening = s.t.sim.store.get<StoredCampaign>("campaigns", registered.id!).startAt;
    expect(check!.timestamp + check!.opts.delay!).toBeLessThan(opening);
    await check!.promote();
    const fresh = await waitFor(
      async () => (await named()).find((c) => c.campaigns_name === `${name} repaired 1`),
      60_000,
      "the fresh campaign",
    );
    await queue.close();

    // The service's clock past the opening: every campaign of the hand-back starts.
    const startAt = Math.max(
      ...[...copies, fresh].map((c) => s.t.sim.store.get<StoredCampaign>("campaigns", c.id!).startAt),
    );
    s.t.sim.clock.advance(startAt - s.t.sim.clock.now() + 3_600_000);
    const ended = await firstOver(stops, sim.id);
    const first = await audiencePhones(s.t.client, sim.id);
    const byCopy = await Promise.all(copies.map((c) => audiencePhones(s.t.client, c.id!)));
    const again = await audiencePhones(s.t.client, fresh.id!);
    console.log(
      `held hand-back: first ${first.length}, copies ${byCopy.map((p) => p.length).join("+")}, fresh ${again.length}, creates ${requestQueue.held()}`,
    );
    expect(byCopy.flat(), daemon.logs()).toEqual([]);
    expect(again).toHaveLength(ended.withdrawn - (ended.racedAtStop ?? 0));
    expect(new Set(again).size).toBe(again.length);
    expect(first.filter((p) => again.includes(p))).toEqual([]);
    expect([...first, ...again].sort()).toEqual([...all].sort());
    expect(daemon.logs()).toContain("repaired before its start");
  }, 240_000);
});
