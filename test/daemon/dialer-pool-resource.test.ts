import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadJobs } from "../../src/config/load-jobs.ts";
import { loadResources } from "../../src/config/load-resources.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { previewFile } from "../../src/pipeline/calling/preview.ts";
import { applyResources } from "../../src/pipeline/resources/apply.ts";
import { createCampaignStore } from "../../src/pipeline/stores/campaign-store.ts";
import { createCreateMemo } from "../../src/pipeline/stores/create-memo.ts";
import { createResourceState } from "../../src/pipeline/stores/resource-state.ts";
import type { StoredCampaign } from "../../src/simulator/store.ts";
import { useCallingDaemon } from "../support/calling-daemon.ts";
import { drop, summaryOf, testSettings, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { useRedis } from "../support/redis.ts";
import { dialerYaml, writeResources } from "../support/resources.ts";

/*
 * Issue 47 item 4: a pool declared in resources/ beside its dialers, named by two jobs
 * (`campaign.dialers: { resource }`). `vcw apply`'s use case makes the dialers; the daemon reads
 * the pool through the job loader: each job's callees are called from the matching number, and
 * the pool's budget per number (10 a day) is one for both jobs; the preview's path agrees.
 */
const NUMBERS = { sf: "+14152000100", ny: "+12122000100", chi: "+13122000100" };
const ENV = { TEST_DIALER_TOKEN: "tok-pool" };

describe("a dialer pool of resources/ shared by two jobs (issue 47, item 4)", () => {
  const h = useCallingDaemon({ timeScale: 1 });
  const { redis } = useRedis();

  it("both jobs' campaigns use the pool's matching dialers and share its budget of 10 a day; preview agrees", async () => {
    const home = tempDir("vcw-pool-res-");
    const tag = randomBytes(3).toString("hex");
    const line = (n: string) => `${n}-${tag}`;
    const resources = join(home, "resources");
    mkdirSync(resources);
    writeResources(resources, [
      ...Object.entries(NUMBERS).map(([n, phone]) => dialerYaml(line(n)).replace("+14155550100", phone)),
      [
        "kind: dialerPool",
        "name: shared",
        "spec:",
        `  pool: [${Object.keys(NUMBERS).map((n) => `{ resource: ${line(n)} }`)}]`,
        "  match: [areaCode, zone, any]",
        "  perNumber: { perDay: 10 }",
        "",
      ].join("\n"),
    ]);
    const settings = testSettings(home, h.t.sim.url);
    const k = redisKeys(settings.prefix.value);
    const loaded = await loadResources(resources, ENV);
    expect(loaded.problems).toEqual([]);
    expect(loaded.pools.map((p) => p.name)).toEqual(["shared"]);
    await applyResources(
      {
        client: h.t.client,
        resources: createResourceState(redis, k),
        memo: createCreateMemo(redis, k),
        store: createCampaignStore(redis, k),
      },
      loaded.resources,
      { dryRun: false, prune: false, jobs: [], env: ENV },
    );
    mkdirSync(join(home, "jobs"));
    for (const job of ["first", "second"])
      writeFileSync(
        join(home, "jobs", `${job}.yaml`),
        [
          `name: ${job}`,
          `inbox: ${join(home, "inbox", job)}`,
          `segment: { name: ${job}-${tag} }`,
          "contacts: { country: US }",
          "campaign:",
          `  assistant: { id: ${h.made.assistantId} }`,
          `  name: "${job}-${tag} {file}"`,
          "  dialers: { resource: shared }",
          `polling: { schedule: "*/5 * * * * *" }`,
        ].join("\n"),
      );
    // The loader (the daemon's, preview's and jobs check's) gives both jobs the pool itself.
    const jobs = await loadJobs(settings.jobsDir.value, settings.resourcesDir.value);
    expect(jobs.problems).toEqual([]);
    expect(jobs.jobs.map((j) => j.job.campaign?.dialers)).toEqual([
      loaded.pools[0]!.spec,
      loaded.pools[0]!.spec,
    ]);

    await h.start(settings);
    const callees = (job: number, other: string) => [
      ...Array.from({ length: 8 }, (_, i) => `+1415600${job}${String(i).padStart(3, "0")}`),
      `+1${other}600${job}999`,
    ];
    const calledFrom = async (job: string, phones: string[]) => {
      drop(
        join(home, "inbox", job),
        "f.csv",
        `First Name,Phone\n${phones.map((p, i) => `C${i},${p}`).join("\n")}\n`,
      );
      await waitFor(() => summaryOf(join(home, "inbox", job), "f.csv"), 60_000, job);
      return waitFor(() => {
        const from = new Map<string, string>();
        for (const c of h.t.sim.store.list<StoredCampaign>("campaigns"))
          if (String(c.fields.campaigns_name).startsWith(`${job}-${tag} `))
            for (const m of h.t.sim.store.contactsOf(c.segmentId))
              from.set(m.fields.phone as string, c.fields.phone_number as string);
        return from.size === phones.length ? from : undefined;
      }, 30_000);
    };
    const first = await calledFrom("first", callees(1, "212"));
    // `vcw preview`'s path on the job as loaded: the same number for each of the first job's callees.
    const preview = join(home, "preview.csv");
    writeFileSync(
      preview,
      `First Name,Phone\n${callees(1, "212")
        .map((p, i) => `C${i},${p}`)
        .join("\n")}\n`,
    );
    const report = await previewFile(
      jobs.jobs[0]!.job,
      preview,
      {
        suppressed: async () => new Set(),
        lastCalled: async () => new Map(),
        callTimes: async () => new Map(),
        pace: async () => undefined,
        dialerNumber: (name) => createResourceState(redis, k).dialerNumber(name),
      },
      Date.now(),
    );
    const previewed = new Map<string, string>();
    for (const c of report.campaigns) for (const p of c.phones) previewed.set(p, c.dialer!.number);
    expect(previewed).toEqual(first);
    const second = await calledFrom("second", callees(2, "312"));
    const sfCalls = (from: Map<string, string>) => [...from.values()].filter((n) => n === NUMBERS.sf).length;
    // The first job's 415 callees from 415 (8 of the 10), its 212 callee from 212.
    expect(sfCalls(first)).toBe(8);
    expect(first.get("+12126001999")).toBe(NUMBERS.ny);
    // The second job meets the same budget: 2 left on 415, the other 6 to the next match.
    expect(sfCalls(second)).toBe(2);
    expect(second.get("+13126002999")).toBe(NUMBERS.chi);
    expect([...second.values()].filter((n) => n !== NUMBERS.sf && n !== NUMBERS.chi).length).toBeGreaterThan(
      0,
    );
  }, 120_000);
});
