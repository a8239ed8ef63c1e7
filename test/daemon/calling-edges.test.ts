import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DateTime } from "luxon";
import { describe, expect, inject, it } from "vitest";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createCampaignStore } from "../../src/pipeline/stores/campaign-store.ts";
import { createStopStore } from "../../src/pipeline/stores/stop-store.ts";
import { createSuppressionList } from "../../src/pipeline/stores/suppression.ts";
import { resumeJobId } from "../../src/queue/job-ids.ts";
import type { StoredCampaign } from "../../src/simulator/store.ts";
import { useCallingDaemon } from "../support/calling-daemon.ts";
import { runCli } from "../support/cli.ts";
import { drop, phoneOf, summaryOf, testSettings, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { useRedis } from "../support/redis.ts";

/*
 * Issue 31 end to end on the simulator, in real time (time scale 1): a hand-back stays inside its
 * campaign's rules, caps count every job's calls, and a number put on a do-not-call list while a
 * campaign calls is not called.
 */
const BUSY = { completed: 0, "no-answer": 0, busy: 1, voicemail: 0, failed: 0, "opted-out": 0 };

function useHarness(pacingMs: number) {
  const h = useCallingDaemon({
    timeScale: 1,
    campaignSegment: "live",
    callModel: { pacingMs, outcomes: BUSY },
  });
  const { redis } = useRedis();
  /** A home with jobs (their campaign's start rule, and top-level lines) and a daemon. */
  async function setup(jobs: Record<string, { start: string; top: string[] }>) {
    const home = tempDir("vcw-edges-");
    mkdirSync(join(home, "jobs"));
    const tag = randomBytes(3).toString("hex");
    for (const [name, job] of Object.entries(jobs))
      writeFileSync(
        join(home, "jobs", `${name}.yaml`),
        [
          `name: ${name}`,
          `inbox: ${join(home, "inbox", name)}`,
          `segment: { name: ${name}-${tag} }`,
          "campaign:",
          `  assistant: { id: ${h.made.assistantId} }`,
          `  dialer: { id: ${h.made.dialerId} }`,
          `  name: "${name}-${tag} {file}"`,
          `  start: ${job.start}`,
          'polling: { schedule: "* * * * * *" }',
          ...job.top,
        ].join("\n"),
      );
    const settings = testSettings(home, h.t.sim.url);
    const daemon = await h.start(settings);
    const env = {
      REDIS_URL: inject("redisUrl"),
      VCW_PREFIX: settings.prefix.value,
      VCW_JOBS_DIR: join(home, "jobs"),
    };
    return {
      home,
      tag,
      daemon,
      env,
      keys: redisKeys(settings.prefix.value),
      inbox: (job: string) => join(home, "inbox", job),
    };
  }
  const campaignsOf = (prefix: string) =>
    h.t.sim.store
      .list<StoredCampaign>("campaigns")
      .filter((c) => String(c.fields.campaigns_name).startsWith(prefix));
  return { h, redis, setup, campaignsOf };
}

/** A contacts file: a header and rows, each given a first name (a contact needs one besides its phone). */
const csv = (rows: string[][]) =>
  `${rows.map((r, i) => [...r, i === 0 ? "First Name" : `Callee ${i}`].join(",")).join("\n")}\n`;

describe("a hand-back inside its campaign's rules", () => {
  const { h, redis, setup, campaignsOf } = useHarness(5_000);

  it("resumes at the contacts' next opening and stops before it closes, not at once (asap, custom hours)", async () => {
    // A zone where it is about noon now, so the hours (from half an hour ago to a minute or two
    // from now) lie inside one local day; the plan closes the first campaign when they close.
    const k = 12 - new Date().getUTCHours();
    const zone = k === 0 ? "Etc/GMT" : k > 0 ? `Etc/GMT-${k}` : `Etc/GMT+${-k}`;
    const local = DateTime.now().setZone(zone);
    const from = local.minus({ minutes: 30 }).startOf("minute");
    const to = local.plus({ minutes: 2 }).startOf("minute");
    const s = await setup({
      hb: {
        start: "asap",
        top: [
          "contacts: { country: US }",
          "calling:",
          "  rules: [custom]",
          `  custom: { days: [sun, mon, tue, wed, thu, fri, sat], from: '${from.toFormat("HH:mm")}', to: '${to.toFormat("HH:mm")}' }`,
          "  marginMinutes: 0",
          "  callsPerMinute: 1000",
        ],
      },
    });
    // Numbers of no place of their own (international freephone): the column alone says where they
    // are. A number's own zone counts beside the column's (issue 43), and a 415 number's is not noon.
    const phones = Array.from({ length: 30 }, (_, i) => `+800${String(12_345_600 + i)}`);
    drop(s.inbox("hb"), "leads.csv", csv([["Phone", "Time Zone"], ...phones.map((p) => [p, zone])]));
    const first = await waitFor(() => campaignsOf(`hb-${s.tag} `)[0], 30_000, "first campaign");
    const stops = createStopStore(redis, s.keys);
    const closed = await waitFor(
      async () => ((await stops.get(first.id))?.withdrawn ? await stops.get(first.id) : undefined),
      240_000,
      "window closed",
    );
    // One of those taken out opts out before the hand-back: it is not handed back, nor counted.
    const withdrawn = await redis.hkeys(s.keys.campaign.withdrawn(first.id));
    await createSuppressionList(redis, s.keys).add([withdrawn[0]!]);
    const stop = await waitFor(
      async () => ((await stops.get(first.id))?.handedBackTo ? await stops.get(first.id) : undefined),
      120_000,
      "handed back",
    );
    expect(closed!.reason).toBe("window-closed");
    expect(stop!.reason).toBe("window-closed");
    const resumed = await waitFor(
      () => campaignsOf(`hb-${s.tag} `).find((c) => String(c.fields.campaigns_name) === stop!.handedBackTo),
      30_000,
      "resumed campaign",
    );
    // Tomorrow's opening of the same hours, in the callee's zone: not now (the job starts asap).
    const opens = from.plus({ days: 1 }).toMillis();
    const closes = to.plus({ days: 1 }).toMillis();
    expect(new Date(resumed.startAt).toISOString()).toBe(new Date(opens).toISOString());
    // The service lists the campaign as soon as it is created; vcw records it a moment later.
    const campaigns = createCampaignStore(redis, s.keys);
    const info = (
      await waitFor(
        async () => (await campaigns.get(resumed.id)) ?? undefined,
        30_000,
        "resumed campaign recorded",
      )
    ).info;
    expect(info.callUntil).toBe(closes);
    // The hand-back says as many contacts as its segment holds (once its job has finished).
    const handedBack = (await waitFor(
      async () => (await s.daemon.queues.followUps.getJob(resumeJobId(first.id)))?.returnvalue ?? undefined,
      30_000,
      "hand-back finished",
    )) as { contacts: number };
    const inSegment = await h.t.client.contacts.list(resumed.segmentId);
    expect(handedBack.contacts).toBe(inSegment.length);
    expect(inSegment.map((c) => c.phone)).not.toContain(withdrawn[0]);
    // Every call of both campaigns inside the hours, by the callee's clock.
    h.t.sim.clock.advance(opens - h.t.sim.clock.now() + 3_600_000);
    await h.t.client.campaigns.audiences(resumed.id);
    const dials = [...(first.audience ?? []), ...(resumed.audience ?? [])]
      .filter((m) => m.withdrawnAt === undefined || m.withdrawnAt >= m.plan.dialAt)
      .map((m) => m.plan.dialAt);
    expect(dials.length).toBe(phones.length - 1);
    for (const at of dials) {
      const hhmm = DateTime.fromMillis(at, { zone }).toFormat("HH:mm");
      expect(
        hhmm >= from.toFormat("HH:mm") && hhmm < to.toFormat("HH:mm"),
        `${new Date(at).toISOString()} is ${hhmm} there`,
      ).toBe(true);
    }
  }, 360_000);
});

describe("caps count every job's calls", () => {
  const { h, setup, campaignsOf } = useHarness(1_000);

  it("a number another job (no calling rules) calls today waits out its cap of 1 a day in a job with rules", async () => {
    const s = await setup({
      plain: {
        start:
          "{ window: { days: [sun, mon, tue, wed, thu, fri, sat], from: '00:00', to: '23:59', timezone: UTC } }",
        top: ["contacts: { country: US }"],
      },
      capped: {
        start: "asap",
        top: [
          "contacts: { country: US, recallAfterDays: 0 }",
          "calling:",
          "  rules: [custom]",
          "  caps: { per24h: 1 }",
          "  callsPerMinute: 1000",
        ],
      },
    });
    const shared = [0, 1, 2].map((i) => phoneOf(820_000 + i));
    const fresh = [3, 4].map((i) => phoneOf(820_000 + i));
    drop(s.inbox("plain"), "a.csv", csv([["Phone"], ...shared.map((p) => [p])]));
    const plain = await waitFor(() => campaignsOf(`plain-${s.tag} `)[0], 30_000, "plain campaign");
    drop(s.inbox("capped"), "b.csv", csv([["Phone"], ...[...shared, ...fresh].map((p) => [p])]));
    const summary = await waitFor(() => summaryOf(s.inbox("capped"), "b.csv"), 60_000, "capped summary");
    const audience = summary.audience as {
      skipped?: Record<string, number>;
      later?: { frequencyCap: number };
    };
    // The plain job's campaign may dial until 23:59 UTC: the shared numbers can't be called again
    // within 24 h of that by the capped job (later, or skipped when its horizon has no opening then).
    expect((audience.later?.frequencyCap ?? 0) + (audience.skipped?.frequency_cap ?? 0)).toBe(shared.length);
    const plainEnd = DateTime.fromMillis(plain.startAt, { zone: "UTC" })
      .set({ hour: 23, minute: 59 })
      .toMillis();
    const capped = await waitFor(() => campaignsOf(`capped-${s.tag} `)[0], 30_000, "capped campaign");
    await waitFor(() => (capped.audience?.length ? true : undefined), 30_000, "capped campaign started");
    for (const c of campaignsOf(`capped-${s.tag} `)) {
      const members = h.t.sim.store.contactsOf(c.segmentId).map((m) => m.fields.phone as string);
      if (members.some((p) => shared.includes(p)))
        expect(c.startAt, "a shared number's campaign").toBeGreaterThanOrEqual(plainEnd + 24 * 3_600_000);
      else expect(members.sort()).toEqual([...fresh].sort());
    }
    // Each shared number called once today, by the plain job.
    h.t.sim.clock.advance(3_600_000);
    const calledToday = h.t.sim.store
      .list<StoredCampaign>("campaigns")
      .filter((c) => c.startAt < plainEnd)
      .flatMap((c) => (c.audience ?? []).map((m) => m.contact.phone));
    for (const phone of shared)
      expect(
        calledToday.filter((p) => p === phone),
        phone,
      ).toHaveLength(1);
  }, 180_000);
});

describe("do-not-call up to the dial", () => {
  const { h, redis, setup, campaignsOf } = useHarness(3_000);

  it("numbers imported with vcw suppress import while a campaign calls are taken out and never dialled", async () => {
    const s = await setup({ dnc: { start: "asap", top: ["contacts: { country: US }"] } });
    const phones = Array.from({ length: 20 }, (_, i) => phoneOf(830_000 + i));
    drop(s.inbox("dnc"), "leads.csv", csv([["Phone"], ...phones.map((p) => [p])]));
    const campaign = await waitFor(() => campaignsOf(`dnc-${s.tag} `)[0], 30_000, "campaign");
    await waitFor(() => (campaign.audience?.length ? true : undefined), 30_000, "started");
    const late = phones.slice(-3);
    const extract = join(s.home, "ftc.txt");
    writeFileSync(extract, late.map((p) => `${p.slice(2, 5)},${p.slice(5)}`).join("\n"));
    const imported = await runCli(["suppress", "import", extract, "--source", "ftc"], s.env);
    expect(imported.code, imported.stderr).toBe(0);
    const stops = createStopStore(redis, s.keys);
    const stop = await waitFor(
      async () =>
        (await stops.get(campaign.id))?.reasons.includes("opted-out")
          ? await stops.get(campaign.id)
          : undefined,
      30_000,
      "listed numbers taken out",
    );
    expect(stop!.withdrawn).toBe(3);
    h.t.sim.clock.advance(86_400_000);
    const called = (await h.t.client.campaigns.audiences(campaign.id)).map((e) => e.phone);
    for (const phone of late) expect(called).not.toContain(phone);
    expect(called).toHaveLength(phones.length - 3);
  }, 120_000);
});
