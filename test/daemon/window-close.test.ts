import { join } from "node:path";
import { afterEach, describe, expect, inject, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { createSuppressionList } from "../../src/pipeline/stores/suppression.ts";
import type { StoredCampaign } from "../../src/simulator/store.ts";
import { runCli } from "../support/cli.ts";
import { quietLogger, testSettings, waitFor } from "../support/daemon.ts";
import {
  all,
  audiencePhones,
  callingHome,
  campaignClosingIn,
  dialled,
  N,
  useCallingSetup,
} from "../support/window-close.ts";

describe("window close, live segment: calls stop and resume at the next opening", () => {
  const s = useCallingSetup("live");
  let daemon: Daemon | undefined;
  afterEach(async () => {
    await daemon?.close();
    daemon = undefined;
  });

  it("takes the uncalled contacts out at callUntil, calls none after, and calls them once at the next opening", async () => {
    const home = callingHome(s.ref.assistant, s.ref.dialerId);
    const settings = testSettings(home.home, s.t.sim.url);
    daemon = await startDaemon({ settings, logger: quietLogger(), watch: true, work: true });
    await daemon.ready;
    const { sim, stops, callUntil } = await campaignClosingIn(s, home, settings.prefix.value, 8_000);

    const stop = await waitFor(
      async () => ((await stops.get(sim.id))?.withdrawn ? await stops.get(sim.id) : undefined),
      30_000,
      "stopped",
    );
    expect(stop!.reason).toBe("window-closed");
    expect(stop!.handBack).toBe(true);
    // Begun ahead of callUntil so its deletes land first (a tick of its 1 s schedule, the deletes, a 5 s base: about 7 s here).
    expect(stop!.at).toBeLessThan(callUntil);
    // Nobody dialled after the stop, nor after callUntil: every call the simulator made was dialled before.
    const stoppedAtSim = s.t.sim.clock.now();
    const made = dialled(sim, "live");
    for (const m of made) expect(m.plan.dialAt).toBeLessThan(callUntil);
    // A contact dialled while the stop ran (after the poll it was chosen from) keeps its call.
    const raced = made.filter((m) => m.withdrawnAt !== undefined).length;
    expect(made.length).toBeLessThan(N);
    expect(made.length + stop!.withdrawn - raced).toBe(N);
    for (const m of made) expect(m.plan.dialAt).toBeLessThanOrEqual(stoppedAtSim);

    // The first campaign ends (the taken-out contacts keep it open no more); the service honoured it.
    const ended = await waitFor(
      async () => {
        const st = await stops.get(sim.id);
        return st?.handedBackTo ? st : undefined;
      },
      60_000,
      "handed back",
    );
    expect(ended.honoured).toBe("yes");
    expect(ended.ranPastWindow).toBe(false);
    expect(ended.racedAtStop ?? 0).toBe(raced);

    // The rest: one campaign at tomorrow's opening, with exactly those contacts, each once.
    const resumed = await waitFor(
      async () => (await s.t.client.campaigns.list()).find((c) => c.campaigns_name === ended.handedBackTo),
      30_000,
      "resumed campaign created",
    );
    // A retry of the hand-back (a crash mid-way, a second worker): the same segment, contacts and campaign.
    await daemon.queues.followUps.add(
      "again",
      { job: home.name, campaignId: sim.id, resume: true },
      { jobId: "resume-again" },
    );
    await waitFor(
      async () => ((await daemon!.queues.followUps.getJob("resume-again"))?.finishedOn ? true : undefined),
      30_000,
      "resumed again",
    );
    const resumedAll = (await s.t.client.campaigns.list()).filter(
      (c) => c.campaigns_name === ended.handedBackTo,
    );
    expect(resumedAll).toHaveLength(1);
    const resumedSegment = (await s.t.client.segments.list()).filter((g) => g.name === ended.handedBackTo);
    expect(resumedSegment).toHaveLength(1);
    expect(await s.t.client.contacts.list(resumedSegment[0]!.id!)).toHaveLength(stop!.withdrawn - raced);
    // The day after the stop, as the hand-back reckons it (not after now: midnight may have passed since).
    const tomorrow = new Date(Date.parse(new Date(stop!.at).toISOString().slice(0, 10)) + 86_400_000)
      .toISOString()
      .slice(0, 10);
    expect(resumed.campaigns_name).toContain(`resumed ${tomorrow}`);
    const resumedSim = s.t.sim.store.get<StoredCampaign>("campaigns", resumed.id!);
    expect(new Date(resumedSim.startAt).toISOString()).toBe(`${tomorrow}T00:00:00.000Z`);
    expect(resumedSim.audience).toBeUndefined();
    s.t.sim.clock.advance(resumedSim.startAt - s.t.sim.clock.now() + 3_600_000);
    const first = await audiencePhones(s.t.client, sim.id);
    const second = await audiencePhones(s.t.client, resumed.id!);
    expect(second).toHaveLength(stop!.withdrawn - raced);
    expect(new Set(second).size).toBe(second.length);
    expect(first.filter((p) => second.includes(p))).toEqual([]);
    expect([...first, ...second].sort()).toEqual([...all].sort());
  }, 150_000);
});

describe("window close, fixed segment: the service calls on, vcw flags it and calls nobody twice", () => {
  const s = useCallingSetup("fixed");
  let daemon: Daemon | undefined;
  afterEach(async () => {
    await daemon?.close();
    daemon = undefined;
  });

  it("flags the campaign as run past its window, honoured no, and hands nobody back", async () => {
    const home = callingHome(s.ref.assistant, s.ref.dialerId);
    const settings = testSettings(home.home, s.t.sim.url);
    daemon = await startDaemon({ settings, logger: quietLogger(), watch: true, work: true });
    await daemon.ready;
    const { sim, stops } = await campaignClosingIn(s, home, settings.prefix.value, 8_000);
    const flagged = await waitFor(
      async () => {
        const st = await stops.get(sim.id);
        return st?.ranPastWindow ? st : undefined;
      },
      60_000,
      "flagged as run past its window",
    );
    expect(flagged.honoured).toBe("no");
    expect(flagged.withdrawn).toBeGreaterThan(0);
    // Every contact called once, by the first campaign; no second campaign for the job.
    const final = await waitFor(
      async () => {
        // Those dialled while the stop ran are counted apart: within the margin, not a sign.
        const st = await stops.get(sim.id);
        return st && st.calledAfter + (st.racedAtStop ?? 0) === st.withdrawn ? st : undefined;
      },
      60_000,
      "every withdrawn contact called anyway",
    );
    expect(final.handedBackTo).toBeUndefined();
    // vcw status shows it, first among stopped campaigns.
    const status = await runCli(["status", "--json"], {
      REDIS_URL: inject("redisUrl"),
      VCW_PREFIX: settings.prefix.value,
      VCW_JOBS_DIR: join(home.home, "jobs"),
    });
    expect(JSON.parse(status.stdout).stoppedCampaigns[0]).toMatchObject({
      id: sim.id,
      stop: { ranPastWindow: true, honoured: "no" },
    });
    s.t.sim.clock.advance(2 * 86_400_000);
    expect((await audiencePhones(s.t.client, sim.id)).sort()).toEqual([...all].sort());
    const ofJob = (await s.t.client.campaigns.list()).filter((c) =>
      c.campaigns_name?.startsWith(`${home.name} `),
    );
    expect(ofJob).toHaveLength(1);
  }, 150_000);
});

describe("vcw stop: a started campaign calls nobody more", () => {
  const s = useCallingSetup("live");
  const daemons: Daemon[] = [];
  afterEach(async () => {
    for (const d of daemons.splice(0)) await d.close();
  });

  it("takes every uncalled contact out, beside a second daemon; twice in a row is the same; none handed back", async () => {
    const home = callingHome(s.ref.assistant, s.ref.dialerId);
    const settings = testSettings(home.home, s.t.sim.url);
    for (const watch of [true, false]) {
      const daemon = await startDaemon({ settings, logger: quietLogger(), watch, work: true });
      daemons.push(daemon);
      await daemon.ready;
    }
    // No window close in this test: the stop is the operator's.
    const { sim, stops } = await campaignClosingIn(s, home, settings.prefix.value, 86_400_000);
    await waitFor(() => (dialled(sim, "live").length >= 3 ? true : undefined), 30_000, "calls began");
    const env = {
      REDIS_URL: inject("redisUrl"),
      VCW_PREFIX: settings.prefix.value,
      VCW_JOBS_DIR: join(home.home, "jobs"),
    };
    const first = await runCli(["stop", sim.id, "--json"], env, 90_000);
    expect(first.code, first.stderr).toBe(0);
    const result = JSON.parse(first.stdout) as { ok: boolean; message: string; stop: { withdrawn: number } };
    expect(result.ok).toBe(true);
    expect(result.message).toContain("taken out of its segment");
    const stoppedAtSim = s.t.sim.clock.now();
    const taken = result.stop.withdrawn;
    expect(taken).toBeGreaterThan(0);

    const again = await runCli(["stop", sim.id], env, 90_000);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("was already stopped");
    expect((await stops.get(sim.id))!.withdrawn).toBe(taken);

    const ended = await waitFor(
      async () => {
        const st = await stops.get(sim.id);
        return st?.honoured === "yes" ? st : undefined;
      },
      60_000,
      "campaign over",
    );
    expect(ended.handBack).toBe(false);
    const made = dialled(sim, "live");
    for (const m of made) expect(m.plan.dialAt).toBeLessThanOrEqual(stoppedAtSim);
    expect(made.length + taken - (ended.racedAtStop ?? 0)).toBe(N);
    // What the campaign's end asked for (a hand-back would be a follow-up job, then a campaign job) is
    // done: no poll, follow-up or campaign job left. Read downstream last, as jobs move that way.
    const { queues } = daemons[0]!;
    await waitFor(
      async () => {
        for (const q of [queues.polls, queues.followUps, queues.campaigns]) {
          const counts = await q.getJobCounts("waiting", "active", "delayed", "prioritized");
          if (Object.values(counts).some((n) => n > 0)) return undefined;
        }
        return true;
      },
      30_000,
      "no poll, follow-up or campaign job left",
    );
    const ofJob = (await s.t.client.campaigns.list()).filter((c) =>
      c.campaigns_name?.startsWith(`${home.name} `),
    );
    expect(ofJob).toHaveLength(1);

    // An unknown campaign is refused (exit 1), as cancel does.
    const unknown = await runCli(["stop", "cmp_nothing-0000", "--json"], env, 60_000);
    expect(unknown.code).toBe(1);
  }, 180_000);
});

describe("an opt-out that arrives before its call", () => {
  const s = useCallingSetup("live");
  let daemon: Daemon | undefined;
  afterEach(async () => {
    await daemon?.close();
    daemon = undefined;
  });

  it("takes the number out of the running campaign: it is not called, and not handed back", async () => {
    const home = callingHome(s.ref.assistant, s.ref.dialerId);
    const settings = testSettings(home.home, s.t.sim.url);
    daemon = await startDaemon({ settings, logger: quietLogger(), watch: true, work: true });
    await daemon.ready;
    const { sim, stops, keys } = await campaignClosingIn(s, home, settings.prefix.value, 86_400_000);
    await waitFor(() => (dialled(sim, "live").length >= 2 ? true : undefined), 30_000, "calls began");
    // The last three of the file opt out meanwhile (another campaign, the CRM, `vcw suppress add`).
    const late = all.slice(-3);
    await createSuppressionList(s.redis, keys).add(late);
    const stop = await waitFor(
      async () => {
        const st = await stops.get(sim.id);
        return st?.reasons.includes("opted-out") ? st : undefined;
      },
      30_000,
      "opt-outs taken out",
    );
    expect(stop.withdrawn).toBe(3);
    expect(stop.handBack).toBe(false);
    s.t.sim.clock.advance(86_400_000);
    const called = await audiencePhones(s.t.client, sim.id);
    expect(called).toHaveLength(N - 3);
    for (const phone of late) expect(called).not.toContain(phone);
    const ended = await waitFor(
      async () => {
        const st = await stops.get(sim.id);
        return st?.honoured === "yes" ? st : undefined;
      },
      60_000,
      "campaign over",
    );
    expect(ended.handedBackTo).toBeUndefined();
  }, 150_000);
});
