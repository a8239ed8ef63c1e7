import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { nextOpening } from "../../src/pipeline/calling/calling-hours.ts";
import type { Plan } from "../../src/pipeline/calling/plan-campaigns.ts";
import { useCallingDaemon } from "../support/calling-daemon.ts";
import { runCli } from "../support/cli.ts";
import {
  contactsCsv,
  drop,
  phoneOf,
  quietLogger,
  summaryOf,
  testSettings,
  waitFor,
} from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { API_KEY } from "../support/fixtures.ts";
import { captureLogs } from "../support/log-capture.ts";

const ALL_WEEK = "[sun, mon, tue, wed, thu, fri, sat]";

/** A simulator, and daemons for jobs of a test's own; the test decides how fast simulated time runs. */
function useHarness(timeScale: number) {
  const h = useCallingDaemon({
    timeScale,
    callModel: {
      outcomes: { completed: 40, "no-answer": 30, busy: 30, voicemail: 0, failed: 0, "opted-out": 0 },
    },
  });
  const { t } = h;

  /** A home with one or more jobs (lines for the campaign section, top-level lines), and a daemon for them. */
  async function setup(
    jobs: Record<string, { campaign?: string[]; top?: string[] }>,
    logger = quietLogger(),
  ) {
    const home = tempDir("vcw-aud-");
    mkdirSync(join(home, "jobs"));
    const tag = randomBytes(3).toString("hex");
    for (const [name, job] of Object.entries(jobs)) {
      writeFileSync(
        join(home, "jobs", `${name}.yaml`),
        [
          `name: ${name}`,
          `inbox: ${join(home, "inbox", name)}`,
          `segment: { name: ${name}-${tag} }`,
          "contacts: { country: US }",
          "campaign:",
          `  assistant: { id: ${h.made.assistantId} }`,
          `  dialer: { id: ${h.made.dialerId} }`,
          `  name: "${name}-${tag} {file}"`,
          ...(job.campaign ?? ["  start: asap"]),
          ...(job.top?.some((l) => l.startsWith("polling:")) ? [] : ['polling: { schedule: "* * * * * *" }']),
          ...(job.top ?? []),
        ].join("\n"),
      );
    }
    const settings = testSettings(home, t.sim.url);
    const daemon = await h.start(settings, logger);
    const campaignsOf = async (name: string) =>
      (await t.client.campaigns.list()).filter((c) => c.campaigns_name?.startsWith(`${name}-${tag} `));
    const calledBy = async (campaignId: string) =>
      (await t.client.campaigns.audiences(campaignId)).map((e) => e.phone!).sort();
    return {
      home,
      inbox: (job: string) => join(home, "inbox", job),
      daemon,
      settings,
      campaignsOf,
      calledBy,
    };
  }

  return { t, setup };
}

const phones = (from: number, n: number) => Array.from({ length: n }, (_, i) => phoneOf(from + i)).sort();

/** Who a campaign calls, what the service says of it, end to end: daemon, real Redis, simulator. */
describe("who gets called, and when", () => {
  // 600 simulated seconds a real second: a small campaign's calls end within a second or two.
  const { t, setup } = useHarness(600);

  it("two files with overlapping numbers: each campaign calls exactly its own new numbers", async () => {
    const s = await setup({ leads: {} });
    drop(s.inbox("leads"), "monday.csv", contactsCsv(10, { from: 100 }));
    await waitFor(async () => ((await s.campaignsOf("leads")).length === 1 ? true : undefined), 30_000);
    drop(s.inbox("leads"), "tuesday.csv", contactsCsv(10, { from: 105 })); // 5 already in the job's segment
    const campaigns = await waitFor(async () => {
      const all = await s.campaignsOf("leads");
      return all.length === 2 ? all : undefined;
    }, 30_000);
    const monday = campaigns.find((c) => c.campaigns_name!.includes("monday.csv"))!;
    const tuesday = campaigns.find((c) => c.campaigns_name!.includes("tuesday.csv"))!;
    await waitFor(async () => ((await s.calledBy(tuesday.id!)).length > 0 ? true : undefined), 30_000);
    expect(await s.calledBy(monday.id!)).toEqual(phones(100, 10));
    expect(await s.calledBy(tuesday.id!)).toEqual(phones(110, 5));
    // The 5 monday's campaign just called are skipped (filed already, and called within the cooldown).
    // The campaign may call before the file is settled (moved last, after its summary): wait for it.
    const summary = await waitFor(
      () => summaryOf(s.inbox("leads"), "tuesday.csv"),
      30_000,
      "tuesday.csv settled",
    );
    expect(summary).toMatchObject({
      created: 5,
      totals: { skipped: 5, codes: { recently_called: 5 } },
      audience: { new: 5, campaigns: [{ contacts: 5 }] },
    });
    // Each campaign has a segment of exactly its contacts, named after it.
    const segments = await t.client.segments.list();
    const own = segments.find((g) => g.name === tuesday.campaigns_name)!;
    expect((await t.client.contacts.list(own.id!)).map((c) => c.phone).sort()).toEqual(phones(110, 5));
  });

  it("a number called minutes ago by another job's campaign is skipped as recently_called", async () => {
    const s = await setup({ alpha: {}, beta: {} });
    drop(s.inbox("alpha"), "a.csv", contactsCsv(3, { from: 200 }));
    await waitFor(async () => ((await s.campaignsOf("alpha")).length === 1 ? true : undefined), 30_000);
    drop(s.inbox("beta"), "b.csv", contactsCsv(4, { from: 201 })); // 201, 202 were just called by alpha
    const summary = await waitFor(() => summaryOf(s.inbox("beta"), "b.csv"), 30_000);
    expect(summary.totals).toMatchObject({ valid: 2, skipped: 2, codes: { recently_called: 2 } });
    expect(readFileSync(summary.errorsFile, "utf8")).toMatch(/recently_called.*called by another campaign/);
    const [beta] = await waitFor(async () => {
      const all = await s.campaignsOf("beta");
      return all.length === 1 ? all : undefined;
    }, 30_000);
    await waitFor(async () => ((await s.calledBy(beta!.id!)).length > 0 ? true : undefined), 30_000);
    expect(await s.calledBy(beta!.id!)).toEqual(phones(203, 2));
    const contact = await runCli(["contact", phoneOf(201), "--json"], {
      REDIS_URL: s.settings.redisUrl.value!,
      VCW_PREFIX: s.settings.prefix.value,
    });
    expect(JSON.parse(contact.stdout)).toMatchObject({
      phone: phoneOf(201),
      suppressed: false,
      history: { attempts: 1 },
    });
    const alpha = (await s.campaignsOf("alpha"))[0]!;
    // The campaign's key until a poll read the call's outcome, then the campaign's id.
    expect(JSON.parse(contact.stdout).history.campaign).toMatch(new RegExp(`^(alpha:|${alpha.id}$)`));
  });

  it("calling hours where the callee is: one campaign per zone, each at the next 09:00-17:00 opening there", async () => {
    const window = `    window: { days: ${ALL_WEEK}, from: "09:00", to: "17:00", timezone: callee, fallbackTimezone: America/New_York }`;
    const s = await setup({ world: { campaign: ["  start:", window] } });
    const numbers = {
      "America/New_York": ["+12125550101", "+12125550102"],
      "America/Los_Angeles": ["+13105550103"],
      "America/Chicago": ["+13125550104"],
      "Europe/London": ["+442079460105", "+442079460106"],
      "Asia/Tokyo": ["+81355550107"],
    };
    const csv = [
      "Phone,First Name",
      ...Object.values(numbers)
        .flat()
        .map((p, i) => `${p},Person ${i}`),
    ].join("\n");
    const dropped = Date.now();
    drop(s.inbox("world"), "world.csv", `${csv}\n`);
    const campaigns = await waitFor(
      async () => {
        const all = await s.campaignsOf("world");
        return all.length === 5 ? all : undefined;
      },
      30_000,
      "five campaigns",
    );
    const created = Date.now();
    // The daemon planned a moment after the drop (an opening or close between changes the plan): judge
    // at its stored plan's instant, its starts "now"; with none, its plan holds until its first opening.
    const redis = new Redis(s.settings.redisUrl.value!);
    const [planKey] = await redis.keys(redisKeys(s.settings.prefix.value).callingPlan("*"));
    const plan = JSON.parse((await redis.get(planKey!))!) as Plan;
    await redis.quit();
    const earliest = Math.min(...plan.campaigns.map((c) => c.scheduledAt));
    const planned = earliest >= dropped && earliest <= created ? earliest : created;
    for (const [zone, expected] of Object.entries(numbers)) {
      const c = campaigns.find((x) => x.campaigns_name!.endsWith(`[${zone}]`));
      expect(c, zone).toBeDefined();
      const at = Date.parse((await s.daemon.stores.store.get(c!.id!))!.info.scheduledAt);
      const opening = nextOpening(
        {
          days: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"],
          from: "09:00",
          to: "17:00",
          timezone: zone,
        },
        planned,
      )!;
      const local = new Intl.DateTimeFormat("en-GB", {
        timeZone: zone,
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      }).format(at);
      if (opening === planned) {
        // Open there now: calls start at once.
        expect(at, zone).toBeGreaterThanOrEqual(planned - 1_000);
        expect(at, zone).toBeLessThanOrEqual(created + 1_000);
        expect(local >= "09:00" && local < "17:00", `${zone} ${local}`).toBe(true);
      } else {
        expect(new Date(at).toISOString(), zone).toBe(new Date(opening).toISOString());
        expect(local, zone).toBe("09:00");
      }
      const segment = (await t.client.segments.list()).find((g) => g.name === c!.campaigns_name)!;
      expect((await t.client.contacts.list(segment.id!)).map((x) => x.phone).sort(), zone).toEqual(
        [...expected].sort(),
      );
    }
  });

  it("a status in no list is warned about at the first poll, counted as unknown, and the campaign finishes", async () => {
    const logs = captureLogs();
    // This job's lists don't know "busy".
    const s = await setup(
      {
        odd: {
          top: [
            "polling:",
            '  schedule: "* * * * * *"',
            "  statuses:",
            "    final: [completed, no-answer]",
            "    retry: [no-answer]",
          ],
        },
      },
      logs.logger,
    );
    drop(s.inbox("odd"), "o.csv", contactsCsv(20, { from: 400 }));
    const [c] = await waitFor(async () => {
      const all = await s.campaignsOf("odd");
      return all.length === 1 ? all : undefined;
    }, 30_000);
    const done = await waitFor(
      async () => {
        const stored = await s.daemon.stores.store.get(c!.id!);
        return stored && stored.info.state !== "active" ? stored : undefined;
      },
      60_000,
      "campaign ended",
    );
    expect(done.info.state).toBe("finished");
    const busy = done.totals.byStatus.busy ?? 0;
    expect(busy).toBeGreaterThan(0);
    expect(done.totals.unknown).toEqual({ busy });
    expect(done.totals.final).toBe(20);
    const warningsNow = () =>
      logs
        .text()
        .split("\n")
        .filter((l) => l.includes('shows status \\"busy\\"'));
    // The poll that ends the campaign may be the first to see "busy": its warning follows the
    // store's write, so the campaign can read as ended a moment before the warning is logged.
    await waitFor(() => (warningsNow().length > 0 ? true : undefined), 10_000, "the warning");
    // Later polls (none once it ended, but a last one may be under way) say nothing more.
    await sleep(1_500);
    expect(warningsNow()).toHaveLength(1);
  });
});

/** With simulated time moved by hand: what happens between a campaign's start and its end. */
describe("suppression on every path", () => {
  const { t, setup } = useHarness(1e-9);

  it("a suppressed number is never called: not by a file's campaign, not by a follow-up", async () => {
    const s = await setup({ calls: { top: ["followUps: { attempts: 1, spacingMinutes: 0 }"] } });
    const env = {
      REDIS_URL: s.settings.redisUrl.value!,
      VCW_PREFIX: s.settings.prefix.value,
      VCS_API_KEY: API_KEY,
    };
    expect((await runCli(["suppress", "add", phoneOf(300)], env)).code).toBe(0);
    drop(s.inbox("calls"), "w.csv", contactsCsv(12, { from: 300 }));
    const [first] = await waitFor(async () => {
      const all = await s.campaignsOf("calls");
      return all.length === 1 ? all : undefined;
    }, 30_000);
    // To the campaign's start: its audience appears, no call has ended yet.
    const startsAt = Date.parse(
      (await waitFor(() => s.daemon.stores.store.get(first!.id!)))!.info.scheduledAt,
    );
    t.sim.clock.advance(Math.max(0, startsAt - t.sim.clock.now()) + 1);
    await waitFor(async () => ((await s.calledBy(first!.id!)).length > 0 ? true : undefined), 30_000);
    const called = await s.calledBy(first!.id!);
    expect(called).toEqual(phones(301, 11));
    // Opted out while the first campaign runs: its follow-up leaves it out.
    const late = called[0]!;
    expect((await runCli(["suppress", "add", late], env)).code).toBe(0);
    t.sim.clock.advance(3_600_000); // every call of the first campaign has ended
    const followUp = await waitFor(
      async () => (await s.campaignsOf("calls")).find((c) => c.campaigns_name!.includes("follow-up 1")),
      60_000,
      "the follow-up campaign",
    );
    const followUpAt = Date.parse(
      (await waitFor(() => s.daemon.stores.store.get(followUp.id!)))!.info.scheduledAt,
    );
    t.sim.clock.advance(Math.max(0, followUpAt - t.sim.clock.now()) + 1);
    await waitFor(async () => ((await s.calledBy(followUp.id!)).length > 0 ? true : undefined), 30_000);
    const again = await s.calledBy(followUp.id!);
    expect(again).not.toContain(phoneOf(300));
    expect(again).not.toContain(late);
    const retried: string[] = [];
    for await (const r of s.daemon.stores.store.allRecords(first!.id!))
      if (r.status === "no-answer" || r.status === "busy") retried.push(r.phone);
    expect(again).toEqual(retried.filter((p) => p !== late).sort());
  }, 120_000); // its waits add up to 90 s on a loaded machine: two CLI runs and a follow-up

  it("a number on a do-not-call list is skipped at import (do_not_call, its source named) and left out of follow-ups", async () => {
    const logs = captureLogs();
    const s = await setup({ dnc: { top: ["followUps: { attempts: 1, spacingMinutes: 0 }"] } }, logs.logger);
    const env = { REDIS_URL: s.settings.redisUrl.value!, VCW_PREFIX: s.settings.prefix.value };
    const extract = join(s.home, "ftc.txt");
    writeFileSync(
      extract,
      `${phoneOf(500).slice(2, 5)},${phoneOf(500).slice(5)}\n${phoneOf(501).slice(2)}\n`,
    );
    expect(
      (await runCli(["suppress", "import", extract, "--source", "ftc", "--expires", "1h"], env)).code,
    ).toBe(0);
    // Its hour passed: still in force, and warned about when the import consults it.
    const redis = new Redis(env.REDIS_URL);
    const lists = redisKeys(env.VCW_PREFIX).dncLists;
    const ftc = JSON.parse((await redis.hget(lists, "ftc"))!);
    await redis.hset(lists, "ftc", JSON.stringify({ ...ftc, expiresAt: Date.now() - 60_000 }));
    await redis.quit();
    drop(s.inbox("dnc"), "d.csv", contactsCsv(8, { from: 500 }));
    const summary = await waitFor(() => summaryOf(s.inbox("dnc"), "d.csv"), 30_000, "d.csv imported");
    expect(summary.totals).toMatchObject({ total: 8, valid: 6, skipped: 2, codes: { do_not_call: 2 } });
    const errors = readFileSync(summary.errorsFile, "utf8");
    expect(errors.match(/do_not_call/g)).toHaveLength(2);
    expect(errors).toContain(`${phoneOf(501)} is on the do-not-call list ""ftc""`); // CSV-quoted
    expect(logs.text()).toMatch(
      /"source":"ftc".*do-not-call list \\"ftc\\" expired 1 min ago .*it still suppresses/,
    );
    const [first] = await waitFor(async () => {
      const all = await s.campaignsOf("dnc");
      return all.length === 1 ? all : undefined;
    }, 30_000);
    const startsAt = Date.parse(
      (await waitFor(() => s.daemon.stores.store.get(first!.id!)))!.info.scheduledAt,
    );
    t.sim.clock.advance(Math.max(0, startsAt - t.sim.clock.now()) + 1);
    await waitFor(async () => ((await s.calledBy(first!.id!)).length > 0 ? true : undefined), 30_000);
    expect(await s.calledBy(first!.id!)).toEqual(phones(502, 6));
    // A second source lists them all while the campaign runs: the follow-up calls none of them.
    writeFileSync(join(s.home, "late.txt"), phones(502, 6).join("\n"));
    expect(
      (await runCli(["suppress", "import", join(s.home, "late.txt"), "--source", "state-fl"], env)).code,
    ).toBe(0);
    t.sim.clock.advance(3_600_000);
    // The follow-up by name: the queue also holds the hand-back ("resume") a stop of the running
    // campaign may ask for, completed in either order. Failed once in CI on [0]; the message says which.
    const done = await waitFor(
      async () =>
        (await s.daemon.queues.followUps.getJobs(["completed"])).find((j) => j.name === "follow-up"),
      60_000,
      "the follow-up job",
    );
    const retried: string[] = [];
    for await (const r of s.daemon.stores.store.allRecords(first!.id!))
      if (r.status === "no-answer" || r.status === "busy") retried.push(r.phone);
    expect(retried.length).toBeGreaterThan(0); // else the follow-up would prove nothing
    const completed = (await s.daemon.queues.followUps.getJobs(["completed"])).map((j) => [
      j.name,
      j.returnvalue,
    ]);
    expect(done.returnvalue, `the follow-up queue's completed jobs: ${JSON.stringify(completed)}`).toEqual({
      contacts: 0,
    });
    expect((await s.campaignsOf("dnc")).map((c) => c.id)).toEqual([first!.id]);
  }, 120_000);
});
