import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { JobDefinition } from "../../src/config/job-definition.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { previewFile } from "../../src/pipeline/calling/preview.ts";
import { splitByDialer } from "../../src/pipeline/campaign/dialer-split.ts";
import { gatherReport } from "../../src/pipeline/reports/gather-report.ts";
import { reportText } from "../../src/pipeline/reports/report-text.ts";
import { createCampaignStore } from "../../src/pipeline/stores/campaign-store.ts";
import { createDialerBudgets } from "../../src/pipeline/stores/dialer-budget.ts";
import { createNumberRests } from "../../src/pipeline/stores/number-rests.ts";
import { createPlanStore } from "../../src/pipeline/stores/plan-store.ts";
import { createResourceState } from "../../src/pipeline/stores/resource-state.ts";
import { poolNumberLine, poolNumberViews } from "../../src/queue/read-model/pool-numbers.ts";
import type { StoredCampaign } from "../../src/simulator/store.ts";
import { useCallingDaemon } from "../support/calling-daemon.ts";
import { drop, summaryOf, testSettings, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { validDialer } from "../support/fixtures.ts";
import { useRedis } from "../support/redis.ts";

/*
 * Issue 47 items 1 and 2 end to end: a pool of three numbers (415, 212, 312) on the simulator; each
 * callee's campaign is created with the dialer whose number fits theirs (the service lists the
 * campaign with its dialer's phone_number), 617 falls back to New York's by zone, and `vcw preview`
 * says the same. Then a budget of 10 calls per number per day, 25 callees in 415 in two files and
 * two daemons: no number is in more than 10 calls, the rest go to the next match.
 */
const NUMBERS = { sf: "+14152000100", ny: "+12122000100", chi: "+13122000100" };

type Harness = ReturnType<typeof useCallingDaemon>;

/** A home whose jobs call through a pool of the three dialers, by id with their numbers. */
async function poolHome(h: Harness, jobs: { name: string; extra: string[] }[], schedule = "*/5 * * * * *") {
  const ids: Record<string, string> = {};
  for (const [name, phone_number] of Object.entries(NUMBERS))
    ids[name] = (await h.t.client.dialers.create(validDialer({ name, phone_number }))).id!;
  const home = tempDir("vcw-pools-");
  mkdirSync(join(home, "jobs"));
  const tag = randomBytes(3).toString("hex");
  for (const j of jobs)
    writeFileSync(
      join(home, "jobs", `${j.name}.yaml`),
      [
        `name: ${j.name}`,
        `inbox: ${join(home, "inbox", j.name)}`,
        `segment: { name: ${j.name}-${tag} }`,
        "contacts: { country: US }",
        "campaign:",
        `  assistant: { id: ${h.made.assistantId} }`,
        `  name: "${j.name}-${tag} {file}"`,
        "  dialers:",
        "    pool:",
        ...Object.entries(NUMBERS).map(([n, phone]) => `      - { id: ${ids[n]}, number: "${phone}" }`),
        ...j.extra,
        `polling: { schedule: "${schedule}" }`,
      ].join("\n"),
    );
  return { home, tag, ids };
}

/** The service's campaigns named `prefix…`: each phone called and the number it is called from. */
const calledFrom = (h: Harness, prefix: string) => {
  const from = new Map<string, string>();
  for (const c of h.t.sim.store.list<StoredCampaign>("campaigns"))
    if (String(c.fields.campaigns_name).startsWith(prefix))
      for (const m of h.t.sim.store.contactsOf(c.segmentId))
        from.set(m.fields.phone as string, c.fields.phone_number as string);
  return from;
};

describe("dialer pools (issue 47)", () => {
  const h = useCallingDaemon({ timeScale: 1 });

  it("each callee is called from the matching number, 617 from New York's by zone; preview agrees", async () => {
    const { home, tag } = await poolHome(h, [
      { name: "plain", extra: ["    match: [areaCode, state, zone, any]"] },
      {
        name: "ruled",
        extra: [
          "calling:",
          "  rules: [us]",
          "  callsPerMinute: 100",
          "  location: { fallbackTimezone: America/Chicago }",
        ],
      },
    ]);
    // Each job its own callees: a number one job called is recently called for the other.
    const calleesOf = (job: number): Record<string, string> => ({
      [`+1415200${job}001`]: NUMBERS.sf,
      [`+1415200${job}002`]: NUMBERS.sf,
      [`+1212200${job}003`]: NUMBERS.ny,
      [`+1312200${job}004`]: NUMBERS.chi,
      [`+1617200${job}005`]: NUMBERS.ny,
    });
    const settings = testSettings(home, h.t.sim.url);
    await h.start(settings);
    for (const [n, job] of ["plain", "ruled"].entries()) {
      const callees = calleesOf(n);
      const csv = `First Name,Phone\n${Object.keys(callees)
        .map((p, i) => `C${i},${p}`)
        .join("\n")}\n`;
      drop(join(home, "inbox", job), "mixed.csv", csv);
      await waitFor(() => summaryOf(join(home, "inbox", job), "mixed.csv"), 60_000, job);
      const from = await waitFor(() => {
        const f = calledFrom(h, `${job}-${tag} `);
        return f.size === 5 ? f : undefined;
      }, 30_000);
      expect(Object.fromEntries(from), job).toEqual(callees);
      // The preview's campaigns: the same dialer for each callee, and why.
      const path = join(home, "preview.csv");
      writeFileSync(path, csv);
      const def = JobDefinition.parse(parseYaml(readFileSync(join(home, "jobs", `${job}.yaml`), "utf8")));
      const report = await previewFile(
        def,
        path,
        {
          suppressed: async () => new Set(),
          lastCalled: async () => new Map(),
          callTimes: async () => new Map(),
          pace: async () => undefined,
        },
        Date.now(),
      );
      const previewed = new Map<string, string>();
      for (const c of report.campaigns) for (const p of c.phones) previewed.set(p, c.dialer!.number);
      expect(Object.fromEntries(previewed), `${job} preview`).toEqual(callees);
      const ny = report.campaigns.find((c) => c.dialer?.number === NUMBERS.ny)!;
      expect(ny.dialer!.matched).toEqual({ "area code 212": 1, "zone America/New_York": 1 });
    }
  }, 120_000);

  it("a budget of 10 a day: no number in more than 10 calls across two files and two daemons", async () => {
    const { home, tag } = await poolHome(h, [{ name: "budget", extra: ["    perNumber: { perDay: 10 }"] }]);
    const settings = testSettings(home, h.t.sim.url);
    await Promise.all([h.start(settings), h.start(settings)]);
    const rows = (from: number, n: number) =>
      `First Name,Phone\n${Array.from({ length: n }, (_, i) => `C${from + i},+1415300${String(from + i).padStart(4, "0")}`).join("\n")}\n`;
    const inbox = join(home, "inbox", "budget");
    drop(inbox, "a.csv", rows(0, 13));
    drop(inbox, "b.csv", rows(13, 12));
    for (const f of ["a.csv", "b.csv"]) await waitFor(() => summaryOf(inbox, f), 60_000, f);
    const from = await waitFor(() => {
      const f = calledFrom(h, `budget-${tag} `);
      return f.size === 25 ? f : undefined;
    }, 30_000);
    const perNumber = new Map<string, number>();
    for (const n of from.values()) perNumber.set(n, (perNumber.get(n) ?? 0) + 1);
    // The service lists every campaign started today: its contacts counted per caller number.
    expect(Math.max(...perNumber.values())).toBeLessThanOrEqual(10);
    expect(perNumber.get(NUMBERS.sf)).toBe(10);
    expect([...perNumber.values()].reduce((a, b) => a + b, 0)).toBe(25);
  }, 120_000);

  it("wait: 25 callees in 415 at 10 a day are called from 415 only, 10 a UTC day, over three days", async () => {
    const { home, tag } = await poolHome(h, [
      { name: "waits", extra: ["    perNumber: { perDay: 10, whenSpent: wait }"] },
    ]);
    await h.start(testSettings(home, h.t.sim.url));
    const inbox = join(home, "inbox", "waits");
    drop(
      inbox,
      "w.csv",
      `First Name,Phone\n${Array.from({ length: 25 }, (_, i) => `C${i},+1415400${String(i).padStart(4, "0")}`).join("\n")}\n`,
    );
    await waitFor(() => summaryOf(inbox, "w.csv"), 60_000, "w.csv");
    const mine = await waitFor(() => {
      const made = h.t.sim.store
        .list<StoredCampaign>("campaigns")
        .filter((c) => String(c.fields.campaigns_name).startsWith(`waits-${tag} `));
      return made.length === 3 ? made : undefined;
    }, 30_000);
    // Per UTC day of the start the service was given: the campaign's contacts, all from 415.
    const perDay = new Map<string, number>();
    for (const c of mine) {
      expect(c.fields.phone_number).toBe(NUMBERS.sf);
      const day = new Date(c.startAt).toISOString().slice(0, 10);
      perDay.set(day, (perDay.get(day) ?? 0) + h.t.sim.store.contactsOf(c.segmentId).length);
    }
    expect([...perDay.values()]).toEqual([10, 10, 5]);
  }, 120_000);
});

describe("a pool number answered far less than the others rests (issue 47, item 3)", () => {
  // New York's number is answered 5% of the time, the others' at the simulator's usual 55%.
  const h = useCallingDaemon({
    timeScale: 1000,
    callModel: { outcomesByDialer: { [NUMBERS.ny]: { completed: 5, "no-answer": 95 } } },
  });
  const { redis } = useRedis();

  it("is rested once 40 of its calls are polled, shown in the next file's summary; its callees go to the next match", async () => {
    const { home, tag } = await poolHome(h, [{ name: "health", extra: [] }], "* * * * * *");
    const settings = testSettings(home, h.t.sim.url);
    await h.start(settings);
    const inbox = join(home, "inbox", "health");
    // A planned campaign split before any call: a retry of it after the rest splits it the same way.
    const def = JobDefinition.parse(parseYaml(readFileSync(join(home, "jobs", "health.yaml"), "utf8")));
    const k = redisKeys(settings.prefix.value);
    const poolDeps = {
      budgets: createDialerBudgets(redis, k),
      resources: createResourceState(redis, k),
      rests: createNumberRests(redis, k),
      store: createCampaignStore(redis, k),
      plans: createPlanStore(redis, k),
    };
    const planned = {
      job: "health",
      sha256: "retried",
      gen: 0,
      original: "r.csv",
      attempt: 0,
      segmentId: "",
      name: "r",
    };
    const numberOf = async (request: typeof planned) =>
      (await splitByDialer(def, request, ["+12125009999"], Date.now(), poolDeps, Date.now())).parts[0]!
        .request.dialerNumber;
    expect(await numberOf(planned)).toBe(NUMBERS.ny);
    const rows = (area: string, from: number, n: number) =>
      Array.from({ length: n }, (_, i) => `C${from + i},+1${area}500${String(from + i).padStart(4, "0")}`);
    drop(
      inbox,
      "first.csv",
      `First Name,Phone\n${[...rows("415", 0, 40), ...rows("212", 40, 40)].join("\n")}\n`,
    );
    await waitFor(() => summaryOf(inbox, "first.csv"), 60_000, "first.csv");
    // Every call of the first file over and polled.
    const store = createCampaignStore(redis, redisKeys(settings.prefix.value));
    await waitFor(
      async () => {
        const ids = await store.allOf("health");
        const all = await Promise.all(ids.map((id) => store.get(id)));
        return ids.length === 2 &&
          all.every((c) => c && c.totals.contacts > 0 && c.totals.final === c.totals.contacts)
          ? true
          : undefined;
      },
      60_000,
      "first file's calls polled",
    );
    // Each campaign keeps the number it calls from: its results CSV's caller_number.
    const infos = await Promise.all(
      (await store.allOf("health")).map(async (id) => (await store.get(id))!.info),
    );
    expect(infos.map((i) => i.dialerNumber).sort()).toEqual([NUMBERS.ny, NUMBERS.sf]);
    drop(inbox, "second.csv", `First Name,Phone\n${rows("212", 80, 5).join("\n")}\n`);
    const second = await waitFor(() => summaryOf(inbox, "second.csv"), 60_000, "second.csv");
    const resting = (
      second.audience as {
        resting?: { number: string; calls: number; answerRate: number; poolAnswerRate: number; z: number }[];
      }
    ).resting;
    expect(resting?.map((r) => r.number)).toEqual([NUMBERS.ny]);
    expect(resting![0]!.calls).toBe(40);
    expect(resting![0]!.answerRate).toBeLessThan(0.2);
    expect(resting![0]!.poolAnswerRate).toBeGreaterThan(0.35);
    expect(resting![0]!.z).toBeLessThan(-2.326);
    // The 212 callees of the second file are called from San Francisco's number (any), not New York's.
    const from = await waitFor(() => {
      const f = calledFrom(h, `health-${tag} second.csv`);
      return f.size === 5 ? f : undefined;
    }, 30_000);
    expect(new Set(from.values())).toEqual(new Set([NUMBERS.sf]));
    expect(await numberOf(planned)).toBe(NUMBERS.ny);
    expect(await numberOf({ ...planned, sha256: "fresh" })).toBe(NUMBERS.sf);
    // The preview reads the rest as the daemon does: a 212 callee from San Francisco's number.
    const csvPath = join(home, "preview.csv");
    writeFileSync(csvPath, "First Name,Phone\nP,+12125008888\n");
    const previewed = await previewFile(
      def,
      csvPath,
      {
        suppressed: async () => new Set(),
        lastCalled: async () => new Map(),
        callTimes: async () => new Map(),
        pace: async () => undefined,
        resting: async (numbers) => new Set((await poolDeps.rests.resting(numbers)).keys()),
      },
      Date.now(),
    );
    expect(previewed.campaigns.map((c) => c.dialer?.number)).toEqual([NUMBERS.sf]);
    // The report gives each caller number's figures: New York's reached far fewer.
    const now = Date.now();
    const period = {
      from: new Date(now - 3_600_000).toISOString(),
      to: new Date(now + 60_000).toISOString(),
      timezone: "UTC",
      label: "hour",
    };
    const report = await gatherReport([def], period, { store }, now);
    const byNumber = new Map((report.numbers ?? []).map((n) => [n.number, n]));
    expect(byNumber.get(NUMBERS.ny)).toMatchObject({ contacts: 40, campaigns: 1 });
    expect(byNumber.get(NUMBERS.ny)!.reachRate).toBeLessThan(0.2);
    expect(byNumber.get(NUMBERS.sf)!.reachRate).toBeGreaterThan(0.35);
    expect(reportText(report)).toContain(`- ${NUMBERS.ny}: 40 contacts in 1 campaigns, reached`);
    // What `vcw status` and the dashboard show of the pool (the read model's one view).
    const views = await poolNumberViews(
      [JobDefinition.parse(parseYaml(readFileSync(join(home, "jobs", "health.yaml"), "utf8")))],
      {
        resources: createResourceState(redis, k),
        budgets: createDialerBudgets(redis, k),
        rests: createNumberRests(redis, k),
      },
      Date.now(),
    );
    expect(views.map((v) => [v.number, v.today, v.resting !== undefined])).toEqual([
      // The files' 45 and 40, and one each for the test's own two splits above.
      [NUMBERS.sf, 46, false],
      [NUMBERS.ny, 41, true],
      [NUMBERS.chi, 0, false],
    ]);
    expect(poolNumberLine(views[1]!)).toMatch(
      /^job health dialer \S+ \+12122000100: 41 calls today, \d+ this hour; RESTING until \S+: answered \d+% against the pool's \d+% \(z -\d+\.\d, 40 calls, \d+% short\)$/,
    );
  }, 120_000);
});

describe("a pool number's budget holds for its follow-ups' calls too (issue 47 item 2)", () => {
  // Nobody answers San Francisco's number: each of its callees is followed up.
  const h = useCallingDaemon({
    timeScale: 1000,
    callModel: { outcomesByDialer: { [NUMBERS.sf]: { "no-answer": 100 } } },
  });

  it("8 callees in 415 at 10 a day: the follow-up calls 2 of them again, not 8 (16 calls from 415 before)", async () => {
    const { home, tag } = await poolHome(
      h,
      [
        {
          name: "again",
          extra: ["    perNumber: { perDay: 10 }", "followUps: { attempts: 1, spacingMinutes: 0 }"],
        },
      ],
      "* * * * * *",
    );
    await h.start(testSettings(home, h.t.sim.url));
    const inbox = join(home, "inbox", "again");
    drop(
      inbox,
      "f.csv",
      `First Name,Phone\n${Array.from({ length: 8 }, (_, i) => `C${i},+1415500${String(i).padStart(4, "0")}`).join("\n")}\n`,
    );
    await waitFor(() => summaryOf(inbox, "f.csv"), 60_000, "f.csv");
    const mine = () =>
      h.t.sim.store
        .list<StoredCampaign>("campaigns")
        .filter((c) => String(c.fields.campaigns_name).startsWith(`again-${tag} `));
    const followUp = await waitFor(
      () => mine().find((c) => / follow-up 1/.test(String(c.fields.campaigns_name))),
      60_000,
    );
    const onSf = mine()
      .filter((c) => c.fields.phone_number === NUMBERS.sf)
      .reduce((n, c) => n + h.t.sim.store.contactsOf(c.segmentId).length, 0);
    expect(followUp.fields.phone_number).toBe(NUMBERS.sf);
    expect(h.t.sim.store.contactsOf(followUp.segmentId)).toHaveLength(2);
    expect(onSf).toBe(10);
  }, 120_000);
});
