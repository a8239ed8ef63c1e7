import { describe, expect, it, vi } from "vitest";
import { formatApplyReport } from "../../../src/cli/commands/apply-report.ts";
import { type JobDefinition, JobDefinition as JobSchema } from "../../../src/config/job-definition.ts";
import { loadResources } from "../../../src/config/load-resources.ts";
import type { RedisKeys } from "../../../src/lib/redis-keys.ts";
import { type ApplyOptions, applyResources } from "../../../src/pipeline/resources/apply.ts";
import { campaignRecords } from "../../../src/pipeline/resources/campaign-records.ts";
import { DialerOutcomeUnknownError } from "../../../src/pipeline/resources/errors.ts";
import { readPreflights } from "../../../src/pipeline/resources/preflight.ts";
import { createCampaignStore } from "../../../src/pipeline/stores/campaign-store.ts";
import { createCreateMemo } from "../../../src/pipeline/stores/create-memo.ts";
import { createResourceState } from "../../../src/pipeline/stores/resource-state.ts";
import { tempDir } from "../../support/files.ts";
import { campaignInfo } from "../../support/fixtures.ts";
import { useRedis } from "../../support/redis.ts";
import { assistantYaml, dialerYaml, kbYaml, writeResources } from "../../support/resources.ts";
import { testClient, useSimulator } from "../../support/simulator.ts";

const TOKEN = "tok-SECRET-7f3e";
const ENV = { TEST_DIALER_TOKEN: TOKEN };
const silent = { info: () => undefined, warn: () => undefined };

const s = useSimulator();
const { redis, keys: newKeys } = useRedis();

/** One test's world: its own key prefix and resource folder, applied to the file's simulator. */
function world() {
  const keys: RedisKeys = newKeys();
  const dir = tempDir("vcw-res-");
  const store = createCampaignStore(redis, keys);
  const deps = {
    client: s.client,
    resources: createResourceState(redis, keys),
    memo: createCreateMemo(redis, keys),
    store,
  };
  const apply = async (o: Partial<ApplyOptions> = {}) => {
    const loaded = await loadResources(dir, ENV);
    expect(loaded.problems).toEqual([]);
    return applyResources(deps, loaded.resources, { dryRun: false, prune: false, jobs: [], env: ENV, ...o });
  };
  const state = createResourceState(redis, keys);
  return { keys, dir, store, deps, apply, state };
}

const named = (prefix: string) => (r: { fields: { name?: unknown; title?: unknown } }) =>
  String(r.fields.name ?? r.fields.title).startsWith(`${prefix}@`);
const assistantsOf = (prefix: string) => s.sim.store.list("assistants").filter(named(prefix));
const kbsOf = (prefix: string) => s.sim.store.list("knowledgeBases").filter(named(prefix));
const dialersNamed = (name: string) => s.sim.store.list("dialers").filter((d) => d.fields.name === name);

const job = (name: string, bot: string, line: string, extra: Record<string, unknown> = {}): JobDefinition =>
  JobSchema.parse({
    name,
    inbox: `inbox/${name}`,
    segment: { name },
    campaign: { assistant: { resource: bot }, dialer: { resource: line } },
    ...extra,
  });

describe("vcw apply against the simulator", () => {
  it("creates a knowledge base, a dialer and an assistant naming it; a second apply changes nothing", async () => {
    const w = world();
    writeResources(w.dir, [kbYaml("faq1"), assistantYaml("bot1", "Goal.", "faq1"), dialerYaml("line1")]);
    const first = await w.apply();
    expect(first.steps.map((x) => `${x.action} ${x.kind}/${x.name}`)).toEqual([
      "create knowledgeBase/faq1",
      "create dialer/line1",
      "create assistant/bot1",
    ]);
    const [kb] = kbsOf("faq1");
    const [bot] = assistantsOf("bot1");
    expect(bot!.fields.knowledge_base_Id).toBe(kb!.id);
    expect(await w.state.currentId("assistant", "bot1")).toBe(bot!.id);
    const again = await w.apply();
    expect(again.steps.map((x) => x.action)).toEqual(["unchanged", "unchanged", "unchanged"]);
    // What the service filled in or wrote its own way (fillers as one string) is no drift.
    expect(again.drift.map((x) => `${x.drift} ${x.kind}/${x.name}`)).toEqual(["unchecked dialer/line1"]);
    expect([assistantsOf("bot1").length, kbsOf("faq1").length, dialersNamed("line1").length]).toEqual([
      1, 1, 1,
    ]);
  });

  it("a change makes a new version that jobs use from then on; --prune deletes the old one only after its last running campaign", async () => {
    const w = world();
    writeResources(w.dir, [kbYaml("faq2"), assistantYaml("bot2", "Goal one.", "faq2"), dialerYaml("line2")]);
    await w.apply();
    const def = job("job2", "bot2", "line2");
    const d = { ...w.deps, logger: silent };
    const v1 = (await campaignRecords(d, def, "job2:a:1:0", Date.now())).assistantId;
    await redis.set(w.keys.campaignMemo("job2:a:1:0"), "cmp-2");
    await w.store.register(campaignInfo({ id: "cmp-2", job: "job2", name: "job2 first" }), Date.now());

    writeResources(w.dir, [
      kbYaml("faq2"),
      assistantYaml("bot2", "Goal two.", "faq2"),
      dialerYaml("line2", "AC2"),
    ]);
    const plan = await w.apply({ dryRun: true });
    const text = formatApplyReport(plan);
    expect(text).toContain('~ goal: "Goal one." -> "Goal two."');
    expect(text).toContain('~ sid: "AC1" -> "AC2"');
    expect(plan.steps.map((x) => x.action)).toEqual(["unchanged", "update", "replace"]);

    const changed = await w.apply({ prune: true, jobs: [def] });
    const bot = changed.steps.find((x) => x.kind === "assistant")!;
    expect(bot.deletions).toEqual([
      expect.objectContaining({ id: v1, keptBecause: "used by campaign job2 first (active)" }),
    ]);
    const v2 = (await campaignRecords(d, def, "job2:b:1:0", Date.now())).assistantId;
    expect(v2).not.toBe(v1);
    expect(
      assistantsOf("bot2")
        .map((a) => a.id)
        .sort(),
    ).toEqual([v1, v2].sort());
    expect(dialersNamed("line2")[0]!.fields.sid).toBe("AC2");

    await w.store.setState("cmp-2", "job2", campaignInfo({ id: "cmp-2", job: "job2" }), "finished");
    const pruned = await w.apply({ prune: true, jobs: [def] });
    expect(pruned.steps.find((x) => x.kind === "assistant")!.deletions).toEqual([
      expect.objectContaining({ id: v1 }),
    ]);
    expect(assistantsOf("bot2").map((a) => a.id)).toEqual([v2]);
  });

  it("a removed resource is deleted with --prune, unless a job still names it", async () => {
    const w = world();
    writeResources(w.dir, [kbYaml("faq3"), assistantYaml("bot3", "Goal.", "faq3"), dialerYaml("line3")]);
    await w.apply();
    writeResources(w.dir, [dialerYaml("line3")]);
    const kept = await w.apply({ prune: true, jobs: [job("job3", "bot3", "line3")] });
    expect(kept.steps.map((x) => `${x.action} ${x.kind}/${x.name}`)).toEqual([
      "unchanged dialer/line3",
      "delete assistant/bot3",
      "delete knowledgeBase/faq3",
    ]);
    expect(kept.steps[1]!.deletions[0]!.keptBecause).toBe("used by job job3");
    expect(kept.steps[2]!.deletions[0]!.keptBecause).toMatch(/^used by assistant bot3@/);
    expect(assistantsOf("bot3")).toHaveLength(1);
    await w.apply({ prune: true });
    expect([assistantsOf("bot3").length, kbsOf("faq3").length]).toEqual([0, 0]);
    expect([...(await w.state.all()).keys()]).toEqual(["dialer/line3"]);
  });

  it("a dialer a job still names is kept by --prune, so its campaigns go on and a later apply makes no second one (issue 32 item 9)", async () => {
    const w = world();
    writeResources(w.dir, [kbYaml("faq19"), assistantYaml("bot19", "Goal.", "faq19"), dialerYaml("line19")]);
    await w.apply();
    const def = job("job19", "bot19", "line19");
    const before = await campaignRecords({ ...w.deps, logger: silent }, def, "job19-a", Date.now());
    // The dialer's file is removed while job19 still names it.
    writeResources(w.dir, [kbYaml("faq19"), assistantYaml("bot19", "Goal.", "faq19")]);
    const pruned = await w.apply({ prune: true, jobs: [def] });
    const step = pruned.steps.find((x) => x.kind === "dialer")!;
    expect(step.action).toBe("delete");
    expect(step.deletions).toEqual([
      { id: before.dialerId, recordName: "line19", keptBecause: "used by job job19" },
    ]);
    expect(formatApplyReport(pruned)).toContain("used by job job19");
    expect((await w.state.all()).has("dialer/line19")).toBe(true);
    // The job's next campaign still has its dialer.
    const after = await campaignRecords({ ...w.deps, logger: silent }, def, "job19-b", Date.now());
    expect(after.dialerId).toBe(before.dialerId);
    // Declared again: the same record, not a second one.
    writeResources(w.dir, [kbYaml("faq19"), assistantYaml("bot19", "Goal.", "faq19"), dialerYaml("line19")]);
    const again = await w.apply({ jobs: [def] });
    expect(again.steps.find((x) => x.kind === "dialer")!.action).not.toBe("create");
    expect(dialersNamed("line19")).toHaveLength(1);
    // No job names it any more: --prune forgets it.
    writeResources(w.dir, [kbYaml("faq19"), assistantYaml("bot19", "Goal.", "faq19")]);
    await w.apply({ prune: true, jobs: [] });
    expect((await w.state.all()).has("dialer/line19")).toBe(false);
  });

  it("reports drift of each kind: changed, deleted, an unmanaged record with a managed name, dialers unchecked", async () => {
    const w = world();
    writeResources(w.dir, [kbYaml("faq4"), assistantYaml("bot4", "Goal.", "faq4"), dialerYaml("line4")]);
    await w.apply();
    const botId = await w.state.currentId("assistant", "bot4");
    const kbId = await w.state.currentId("knowledgeBase", "faq4");
    const stored = s.sim.store.get("assistants", botId);
    s.sim.store.update("assistants", botId, { ...stored.fields, goal: "Edited in the service's UI." });
    await s.client.knowledgeBases.delete(kbId);
    await s.client.knowledgeBases.create({
      title: "faq4",
      language: "en",
      data: [{ question: "q", answer: "a" }],
    });

    const report = await w.apply({ dryRun: true });
    const drift = report.drift.map((x) => `${x.drift} ${x.kind}/${x.name}`);
    expect(drift).toEqual(
      expect.arrayContaining([
        "changed assistant/bot4",
        "deleted knowledgeBase/faq4",
        "unmanaged knowledgeBase/faq4",
        "unchecked dialer/line4",
      ]),
    );
    expect(report.drift.find((x) => x.drift === "changed")!.diff).toEqual([
      '~ goal: "Goal." -> "Edited in the service\'s UI."',
    ]);
    expect(report.drift.find((x) => x.drift === "unchecked")!.detail).toMatch(/no dialer list/);
    // A deleted version is made again (a new assistant too: it names the knowledge base by its new id).
    expect(report.steps.find((x) => x.kind === "knowledgeBase")).toMatchObject({
      action: "create",
      reason: "deleted on the service",
    });
  });

  it("keeps every secret out of the plan, the report, the state and the errors", async () => {
    const w = world();
    writeResources(w.dir, [dialerYaml("line5")]);
    const report = await w.apply();
    writeResources(w.dir, [dialerYaml("line5", "AC9")]);
    const plan = await w.apply({ dryRun: true });
    const state = await redis.hgetall(w.keys.resources);
    expect(dialersNamed("line5")[0]!.fields.auth_token).toBe(TOKEN); // it did reach the service
    for (const out of [
      JSON.stringify(report),
      JSON.stringify(plan),
      formatApplyReport(plan),
      JSON.stringify(state),
    ])
      expect(out).not.toContain(TOKEN);
    const rotated = "tok-SECRET-rotated-2";
    expect((await w.apply({ env: { TEST_DIALER_TOKEN: rotated } })).steps[0]!.action).toBe("update"); // AC9
    await w.apply({ env: { TEST_DIALER_TOKEN: "tok-SECRET-rotated-3" } });
    expect(dialersNamed("line5")[0]!.fields.auth_token).toBe(rotated); // unchanged file: not sent
    const resent = await w.apply({ env: { TEST_DIALER_TOKEN: "tok-SECRET-rotated-3" }, resendSecrets: true });
    expect(resent.steps[0]).toMatchObject({ action: "update", reason: "secrets re-sent" });
    expect(dialersNamed("line5")[0]!.fields.auth_token).toBe("tok-SECRET-rotated-3");
    expect(JSON.stringify(resent) + JSON.stringify(await redis.hgetall(w.keys.resources))).not.toMatch(
      /rotated/,
    );
    s.sim.setFaults({ errorRate: 1 });
    const error = await w.apply().catch((e: Error) => e);
    s.sim.setFaults({ errorRate: 0 });
    expect(String(error)).not.toContain(TOKEN);
  });

  it("two applies at once make one version of each resource", async () => {
    const w = world();
    writeResources(w.dir, [kbYaml("faq6"), assistantYaml("bot6", "Goal.", "faq6"), dialerYaml("line6")]);
    s.sim.setFaults({ latencyMs: 250 });
    try {
      const { resources } = await loadResources(w.dir, ENV);
      const apply = () =>
        applyResources(w.deps, resources, { dryRun: false, prune: false, jobs: [], env: ENV });
      const first = apply();
      // The second starts while the first is halfway: its knowledge base made, its assistant not yet.
      await vi.waitFor(() => expect(kbsOf("faq6")).toHaveLength(1), { timeout: 5_000, interval: 5 });
      const [a, b] = await Promise.all([first, apply()]);
      expect([a, b].map((r) => r.steps.map((x) => x.action).join(",")).sort()).toEqual([
        "create,create,create",
        "unchanged,unchanged,unchanged",
      ]);
    } finally {
      s.sim.setFaults({ latencyMs: 0 });
    }
    expect([assistantsOf("bot6").length, kbsOf("faq6").length, dialersNamed("line6").length]).toEqual([
      1, 1, 1,
    ]);
  });

  it("a create answered 500 after it was applied is found by its name, never made twice", async () => {
    const w = world();
    writeResources(w.dir, [kbYaml("faq7"), assistantYaml("bot7", "Goal.", "faq7")]);
    s.sim.setFaults({ commitThenFailRate: 1, commitThenFailMode: "500" });
    try {
      await w.apply();
    } finally {
      s.sim.setFaults({ commitThenFailRate: 0 });
    }
    expect([assistantsOf("bot7").length, kbsOf("faq7").length]).toEqual([1, 1]);
    expect(await w.state.currentId("assistant", "bot7")).toBe(assistantsOf("bot7")[0]!.id);
    expect(assistantsOf("bot7")[0]!.fields.knowledge_base_Id).toBe(kbsOf("faq7")[0]!.id);
  });

  it("a create that failed before the service applied it is looked up, not found, and sent again once", async () => {
    const w = world();
    writeResources(w.dir, [kbYaml("faq11")]);
    let refused = 0;
    // A proxy in front of the service answers the first create 502 without passing it on.
    const client = testClient(s.sim, {
      fetch: async (input, init) => {
        const url = String(input instanceof Request ? input.url : input);
        if (url.includes("/knowledgeBase/create") && refused === 0) {
          refused += 1;
          return new Response(JSON.stringify({ error: 502, message: "bad gateway" }), { status: 502 });
        }
        return fetch(input, init);
      },
    });
    const { resources } = await loadResources(w.dir, ENV);
    await applyResources({ ...w.deps, client }, resources, {
      dryRun: false,
      prune: false,
      jobs: [],
      env: ENV,
    });
    expect(refused).toBe(1);
    expect(kbsOf("faq11")).toHaveLength(1);
    expect(await w.state.currentId("knowledgeBase", "faq11")).toBe(kbsOf("faq11")[0]!.id);
  });

  it("a dialer create whose answer was lost is never sent again on a guess: the operator adopts it", async () => {
    const w = world();
    writeResources(w.dir, [dialerYaml("line8")]);
    s.sim.setFaults({ commitThenFailRate: 1, commitThenFailMode: "500" });
    const lost = await w.apply().catch((e: Error) => e);
    s.sim.setFaults({ commitThenFailRate: 0 });
    expect(lost).toBeInstanceOf(DialerOutcomeUnknownError);
    expect(String(lost)).toContain("vcw apply --adopt line8=ID");
    expect(await w.apply().catch((e: Error) => e)).toBeInstanceOf(DialerOutcomeUnknownError);
    const made = dialersNamed("line8");
    expect(made).toHaveLength(1);
    await w.apply({ adopt: new Map([["line8", made[0]!.id]]) });
    expect(await w.state.currentId("dialer", "line8")).toBe(made[0]!.id);
    expect(dialersNamed("line8")).toHaveLength(1);
  });

  it("an apply cut short between a create and its record is run again without a duplicate", async () => {
    const w = world();
    writeResources(w.dir, [kbYaml("faq9"), assistantYaml("bot9", "Goal.", "faq9")]);
    await w.apply();
    await redis.hdel(w.keys.resources, "assistant/bot9"); // as if the process died before writing it
    const rerun = await w.apply();
    expect(rerun.steps.find((x) => x.kind === "assistant")).toMatchObject({
      action: "create",
      adopt: expect.any(String),
    });
    expect(assistantsOf("bot9")).toHaveLength(1);
    expect(await w.state.currentId("assistant", "bot9")).toBe(assistantsOf("bot9")[0]!.id);
  });

  it("a record adopted after the process died is not reported as unmanaged (issue 32, smaller list)", async () => {
    const w = world();
    writeResources(w.dir, [kbYaml("faq29"), assistantYaml("bot29", "Goal.", "faq29")]);
    await w.apply();
    await redis.hdel(w.keys.resources, "assistant/bot29"); // as if killed between the create and its record
    const rerun = await w.apply();
    const adopted = rerun.steps.find((x) => x.kind === "assistant")!.adopt!;
    expect(adopted).toBe(assistantsOf("bot29")[0]!.id);
    expect(rerun.drift.filter((d) => d.drift === "unmanaged")).toEqual([]);
    expect(formatApplyReport(rerun)).not.toMatch(/unmanaged|not made by vcw/);
    const after = await w.apply({ dryRun: true });
    expect(after.drift.filter((d) => d.drift === "unmanaged")).toEqual([]);
  });

  it("a job's preflight calls the operator once a day before its first campaign", async () => {
    const w = world();
    writeResources(w.dir, [assistantYaml("bot10", "Goal.", ""), dialerYaml("line10")]);
    await w.apply();
    const def = job("job10", "bot10", "line10", { preflight: { to: ["+14155550199"] } });
    const d = { ...w.deps, logger: silent };
    const before = s.sim.store.list("playgroundCalls").length;
    const day = Date.parse("2026-11-23T08:00:00Z");
    await campaignRecords(d, def, "job10:a:1:0", day);
    await campaignRecords(d, def, "job10:b:1:0", day + 3_600_000);
    expect(s.sim.store.list("playgroundCalls").length - before).toBe(1);
    const [record] = await readPreflights(w.state);
    expect(record).toMatchObject({ job: "job10", day: "2026-11-23", ok: true, to: ["+14•••••••99"] });
    await campaignRecords(d, def, "job10:c:1:0", day + 86_400_000);
    expect(s.sim.store.list("playgroundCalls").length - before).toBe(2);
  });
});
