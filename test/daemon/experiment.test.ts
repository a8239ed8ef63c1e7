import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, inject, it } from "vitest";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createCampaignStore } from "../../src/pipeline/stores/campaign-store.ts";
import { createExperimentStore } from "../../src/pipeline/stores/experiment-store.ts";
import { variantOf } from "../../src/pipeline/variant-assignment.ts";
import { launchChromium } from "../support/browser.ts";
import { useCallingDaemon } from "../support/calling-daemon.ts";
import { runCli } from "../support/cli.ts";
import { contactsCsv, drop, summaryOf, testSettings, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { validAssistant } from "../support/fixtures.ts";
import { captureLogs } from "../support/log-capture.ts";
import { useRedis } from "../support/redis.ts";

const tag = randomBytes(3).toString("hex");
const POOR = `Poor ${tag}`;
const GOOD = `Good ${tag}`;
const AB = [
  { name: "a", share: 1 },
  { name: "b", share: 1 },
];

describe("an experiment on the simulator: sticky by person, compared, the worse variant stopped", () => {
  // 600 simulated seconds a real second; the two assistants' calls go very differently.
  const h = useCallingDaemon({
    timeScale: 600,
    callModel: {
      outcomesByAssistant: {
        [POOR]: { completed: 20, "no-answer": 60, "opted-out": 20 },
        [GOOD]: { completed: 80, "no-answer": 20 },
      },
    },
  });
  const { t } = h;
  const { redis } = useRedis();

  function setup() {
    const home = tempDir("vcw-exp-");
    const inbox = join(home, "inbox");
    const jobs = join(home, "jobs");
    mkdirSync(jobs);
    // A fixed name: the split of the files' numbers is then fixed too (the test checks it fits).
    const name = "experiment-ab";
    writeFileSync(
      join(jobs, "exp.yaml"),
      [
        `name: ${name}`,
        `inbox: ${inbox}`,
        // A segment per file, and no cooldown: a number in two files is called by each.
        "segment: { name: '{job} {file} {sha}' }",
        "contacts: { country: US, recallAfterDays: 0 }",
        "campaign:",
        "  variants:",
        `    - { name: a, assistant: { name: ${POOR} }, share: 1 }`,
        `    - { name: b, assistant: { name: ${GOOD} }, share: 1 }`,
        `  dialer: { id: ${h.made.dialerId} }`,
        "  start: asap",
        "  experiment:",
        "    metric: reached",
        "    guardrail: { stopWorse: true, minContacts: 55 }",
        "polling:",
        '  schedule: "* * * * * *"',
        "followUps: { attempts: 1, spacingMinutes: 0 }",
      ].join("\n"),
    );
    return { inbox, name, settings: testSettings(home, t.sim.url) };
  }

  it("two files and a follow-up keep each person's variant; the report calls b better; the guardrail stops a", async () => {
    await t.client.assistants.create(validAssistant({ name: POOR }));
    await t.client.assistants.create(validAssistant({ name: GOOD }));
    const assistants = { a: POOR, b: GOOD };
    const s = setup();
    const { logger, text: logs } = captureLogs();
    await h.start(s.settings, logger);
    const keys = redisKeys(s.settings.prefix.value);
    const store = createCampaignStore(redis, keys);

    // 100 contacts, then 100 of which half were in the first file: 150 people.
    drop(s.inbox, "one.csv", contactsCsv(100, { from: 70_000 }));
    await waitFor(() => summaryOf(s.inbox, "one.csv"), 30_000, "one.csv imported");
    drop(s.inbox, "two.csv", contactsCsv(100, { from: 70_050 }));
    await waitFor(() => summaryOf(s.inbox, "two.csv"), 30_000, "two.csv imported");

    // The guardrail judges once both variants have 55 people called, which the first file's 100
    // can't give both: the second file is planned before any stop. Then a is stopped.
    const people = contactsCsv(150, { from: 70_000 })
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => `+1${l.split(",")[0]}`);
    const split = AB.map((v) => people.filter((p) => variantOf(s.name, p, AB) === v.name).length);
    expect(Math.min(...split)).toBeGreaterThanOrEqual(55);
    const experiments = createExperimentStore(redis, keys);
    const stop = await waitFor(
      async () => (await experiments.decisions(s.name)).find((d) => d.variant === "a"),
      60_000,
      "the guardrail's decision",
    ).catch(async (e) => {
      const env = {
        REDIS_URL: inject("redisUrl"),
        VCW_PREFIX: s.settings.prefix.value,
        VCW_JOBS_DIR: s.settings.jobsDir.value,
      };
      const st = await runCli(["experiment", "status", s.name, "--json"], env);
      // What the guardrail saw, in the failure itself (a path of one machine helps no one else).
      throw new Error(`${(e as Error).message}\n${st.stdout}\n${st.stderr}\n${logs()}`);
    });
    expect(stop).toMatchObject({ action: "stop", by: "guardrail" });
    expect(stop.reason).toMatch(/^a is worse than b on contacts reached: .*the data tells them apart\.$/);
    expect(stop.figures).toMatchObject({ metric: "reached", against: "b" });
    expect(Number(stop.figures!.high)).toBeLessThan(0);
    // Logged right after the decision is written: this read of Redis may answer first.
    await waitFor(
      () => (logs().includes("variant a gets no new contacts") ? true : undefined),
      5_000,
      "the guardrail's stop in the log",
    );

    // Every campaign made with its variant's assistant; follow-ups made too.
    const infos = await waitFor(
      async () => {
        const all = await Promise.all((await store.allOf(s.name)).map((id) => store.get(id)));
        const list = all.flatMap((x) => (x ? [x.info] : []));
        return list.some((i) => i.attempt > 0) && list.every((i) => i.state !== "active") ? list : undefined;
      },
      60_000,
      "every campaign, follow-ups too, ended",
    );
    const made = await t.client.campaigns.list();
    for (const info of infos) {
      expect(["a", "b"]).toContain(info.variant);
      const service = made.find((c) => c.id === info.id)!;
      expect(service.assistant_name).toBe(assistants[info.variant as "a" | "b"]);
    }
    expect(new Set(infos.filter((i) => i.attempt > 0).map((i) => i.variant)).size).toBeGreaterThan(0);

    // Sticky: each person called under one variant in both files and the follow-ups, the hash's.
    const seen = new Map<string, Set<string>>();
    const files = new Map<string, Set<string>>();
    for (const info of infos)
      for await (const r of store.allRecords(info.id)) {
        seen.set(r.phone, (seen.get(r.phone) ?? new Set()).add(info.variant!));
        files.set(r.phone, (files.get(r.phone) ?? new Set()).add(`${info.file}:${info.attempt}`));
      }
    for (const [phone, variants] of seen) expect([...variants]).toEqual([variantOf(s.name, phone, AB)]);
    const inBothFiles = [...files].filter(
      ([, f]) => [...f].some((x) => x.startsWith("one.csv")) && [...f].some((x) => x.startsWith("two.csv")),
    );
    expect(inBothFiles.length).toBeGreaterThan(20);
    const calledAgain = [...files].filter(([, f]) => [...f].some((x) => x.endsWith(":1")));
    expect(calledAgain.length).toBeGreaterThan(10);

    // The report compares them and calls the better one.
    const env = {
      REDIS_URL: inject("redisUrl"),
      VCW_PREFIX: s.settings.prefix.value,
      VCW_JOBS_DIR: s.settings.jobsDir.value,
    };
    const report = JSON.parse(
      (await runCli(["report", "--job", s.name, "--since", "1d", "--json"], env)).stdout,
    );
    const [a, b] = report.variants as {
      name: string;
      contactsCalled: number;
      reachedRate: { rate: number; low: number; high: number };
      versus?: { verdict: string };
    }[];
    expect(a).toMatchObject({ name: "a" });
    expect(b).toMatchObject({ name: "b", versus: { against: "a", metric: "reached", verdict: "better" } });
    expect(b!.reachedRate.low).toBeGreaterThan(a!.reachedRate.high);
    expect(report.experiment.summary).toMatch(
      /^b is better than a on contacts reached: .*the data tells them apart\.$/,
    );
    const text = (await runCli(["report", "--job", s.name, "--since", "1d"], env)).stdout;
    expect(text).toContain("Experiment, compared on contacts reached:");
    await pageShowsTheExperiment(s.name, env);

    // A new file after the stop: nobody goes to a.
    drop(s.inbox, "three.csv", contactsCsv(30, { from: 71_000 }));
    const three = await waitFor(() => summaryOf(s.inbox, "three.csv"), 30_000, "three.csv imported");
    const campaigns = (
      three as unknown as { audience: { campaigns: { variant?: string; contacts: number }[] } }
    ).audience.campaigns;
    expect(campaigns.map((c) => c.variant)).toEqual(["b"]);
    expect(campaigns[0]!.contacts).toBe(30);

    // vcw experiment status shows the decision with its figures; stop and promote say what they can't do.
    const status = await runCli(["experiment", "status", s.name], env);
    expect(status.stdout).toMatch(/a: stopped by the guardrail at .*: a is worse than b/);
    const last = await runCli(["experiment", "stop", s.name, "b"], env);
    expect(last.code).toBe(1);
    expect(last.stderr).toMatch(/b is the last variant given new contacts/);
    const unknown = await runCli(["experiment", "promote", s.name, "c"], env);
    expect(unknown.stderr).toMatch(/the job has no variant "c" \(variants: a, b\)/);
    const promote = await runCli(["experiment", "promote", s.name, "b"], env);
    expect(promote.code).toBe(0);
    expect(promote.stdout).toMatch(/b: promoted by the operator/);
  }, 180_000);
});

// The first file's campaign for b is refused by the service: half of b's contacts are never called.
const REFUSED_CSV = contactsCsv(200, { from: 72_000 });
const REFUSED_SHA = createHash("sha256").update(REFUSED_CSV).digest("hex");

describe("an experiment whose variant lost a campaign: the sample ratio alarm, and no stop for it", () => {
  const h = useCallingDaemon({
    timeScale: 600,
    callModel: {
      outcomesByAssistant: {
        [POOR]: { completed: 20, "no-answer": 60, "opted-out": 20 },
        [GOOD]: { completed: 80, "no-answer": 20 },
      },
    },
    faults: { refuseCampaigns: [`#${REFUSED_SHA.slice(0, 8)} (variant b)`] },
  });
  const { t } = h;
  const { redis } = useRedis();

  it("b's refused campaign raises the alarm in the report, the page and vcw experiment status; the guardrail holds its stop of b", async () => {
    await t.client.assistants.create(validAssistant({ name: POOR }));
    await t.client.assistants.create(validAssistant({ name: GOOD }));
    const home = tempDir("vcw-exp-srm-");
    const inbox = join(home, "inbox");
    mkdirSync(join(home, "jobs"));
    const name = "experiment-srm";
    writeFileSync(
      join(home, "jobs", "exp.yaml"),
      [
        `name: ${name}`,
        `inbox: ${inbox}`,
        "segment: { name: '{job} {file} {sha}' }",
        "contacts: { country: US, recallAfterDays: 0 }",
        "campaign:",
        "  variants:",
        // b is truly worse: without the alarm, the guardrail would stop it.
        `    - { name: a, assistant: { name: ${GOOD} }, share: 1 }`,
        `    - { name: b, assistant: { name: ${POOR} }, share: 1 }`,
        `  dialer: { id: ${h.made.dialerId} }`,
        "  start: asap",
        "  experiment:",
        "    guardrail: { stopWorse: true, minContacts: 55 }",
        "polling:",
        '  schedule: "* * * * * *"',
      ].join("\n"),
    );
    const settings = testSettings(home, t.sim.url);
    const { logger, text: logs } = captureLogs();
    await h.start(settings, logger);
    const keys = redisKeys(settings.prefix.value);
    const store = createCampaignStore(redis, keys);
    drop(inbox, "one.csv", REFUSED_CSV);
    await waitFor(() => summaryOf(inbox, "one.csv"), 30_000, "one.csv imported");
    drop(inbox, "two.csv", contactsCsv(200, { from: 73_000 }));
    await waitFor(() => summaryOf(inbox, "two.csv"), 30_000, "two.csv imported");
    // Three campaigns made (b's of one.csv refused), every one ended; the guardrail looks at each end.
    await waitFor(
      async () => {
        const infos = (await Promise.all((await store.allOf(name)).map((id) => store.get(id)))).flatMap(
          (x) => (x ? [x.info] : []),
        );
        return infos.length === 3 && infos.every((i) => i.state !== "active") ? infos : undefined;
      },
      90_000,
      "the three campaigns made, ended",
    );
    // The guardrail's look at each end is done before the poll logs "campaign ended" (poll-follow.ts).
    const endsLogged = () =>
      new Set(
        logs()
          .split("\n")
          .filter((l) => l.includes('"msg":"campaign ended"'))
          .map((l) => (JSON.parse(l) as { campaign: string }).campaign),
      ).size;
    await waitFor(() => (endsLogged() >= 3 ? true : undefined), 30_000, "the guardrail's look at each end");
    expect(await createExperimentStore(redis, keys).decisions(name)).toEqual([]);
    expect(logs()).not.toContain("gets no new contacts");

    const env = {
      REDIS_URL: inject("redisUrl"),
      VCW_PREFIX: settings.prefix.value,
      VCW_JOBS_DIR: settings.jobsDir.value,
    };
    const status = await runCli(["experiment", "status", name], env);
    expect(status.stdout).toMatch(
      /The comparison is unreliable: Sample ratio mismatch \(p = [^)]+ < 0\.001\): contacts called a \d+ of \d+ given it \([\d.]+%\), b \d+ of \d+ given it \([\d.]+%\); missing: b: \d+ in no campaign made \(refused, failed or not made yet\)/,
    );
    expect(status.stdout).toContain("Decisions: none");
    const json = JSON.parse((await runCli(["experiment", "status", name, "--json"], env)).stdout);
    const b = json.variants.find((v: { name: string }) => v.name === "b");
    const refused = AB.map(
      (v) =>
        contactsCsv(200, { from: 72_000 })
          .trim()
          .split("\n")
          .slice(1)
          .filter((l) => variantOf(name, `+1${l.split(",")[0]}`, AB) === v.name).length,
    );
    expect(b.missing).toEqual({ "no-campaign": refused[1] });
    expect(json.experiment.sampleRatio.find((c: { of: string }) => c.of === "called")).toMatchObject({
      mismatch: true,
    });
    const text = (await runCli(["report", "--job", name, "--since", "1d"], env)).stdout;
    expect(text).toContain("The comparison is unreliable: Sample ratio mismatch");
    const html = join(tempDir("vcw-exp-srm-page-"), "report.html");
    expect((await runCli(["report", "--job", name, "--since", "1d", "--html", html], env)).code).toBe(0);
    const browser = await launchChromium({ width: 900, height: 900 });
    try {
      const page = await browser.context.newPage();
      await page.goto(pathToFileURL(html).href);
      const alarm = page.locator("#experiment .srm");
      await expect(alarm.count()).resolves.toBe(1);
      await expect(alarm.textContent()).resolves.toMatch(
        /^Sample ratio mismatch \(p = .*b: \d+ in no campaign made/,
      );
      expect((await alarm.boundingBox())!.height).toBeGreaterThan(10);
    } finally {
      await browser.close();
    }
  }, 180_000);
});

/**
 * The report's page in a real browser: the experiment section, each variant's interval drawn as a
 * bar inside its track. VCW_EXPERIMENT_SCREENSHOT names a PNG of the section to write (docs/).
 */
async function pageShowsTheExperiment(job: string, env: NodeJS.ProcessEnv) {
  const html = join(tempDir("vcw-exp-page-"), "report.html");
  expect((await runCli(["report", "--job", job, "--since", "1d", "--html", html], env)).code).toBe(0);
  const browser = await launchChromium({ width: 900, height: 900 });
  try {
    const page = await browser.context.newPage();
    await page.goto(pathToFileURL(html).href);
    const section = page.locator("#experiment");
    await expect(section.locator("h2").textContent()).resolves.toBe("Experiment: contacts reached");
    await expect(section.locator("tbody tr").count()).resolves.toBe(2);
    for (const row of await section.locator("tbody tr").all()) {
      const track = (await row.locator(".ci").boundingBox())!;
      const span = (await row.locator(".ci .span").boundingBox())!;
      expect(span.width).toBeGreaterThan(1);
      expect(span.x).toBeGreaterThanOrEqual(track.x);
      expect(span.x + span.width).toBeLessThanOrEqual(track.x + track.width + 0.5);
    }
    await expect(section.locator(".verdict").textContent()).resolves.toMatch(/^b is better than a/);
    const shot = process.env.VCW_EXPERIMENT_SCREENSHOT;
    if (shot) await section.screenshot({ path: shot });
  } finally {
    await browser.close();
  }
}
