import { describe, expect, it } from "vitest";
import { JobDefinition } from "../../../src/config/job-definition.ts";
import { ExperimentCampaigns } from "../../../src/pipeline/reports/experiment-campaigns.ts";
import { gatherExperiment } from "../../../src/pipeline/reports/gather-experiment.ts";
import { createCampaignStore } from "../../../src/pipeline/stores/campaign-store.ts";
import { experimentJob, optOutLater, seedExperimentCampaign } from "../../support/experiment-seed.ts";
import { useRedis } from "../../support/redis.ts";

const T0 = Date.parse("2026-11-20T08:00:00Z");

describe("the experiment's campaigns kept between looks (issue 48 item 5)", () => {
  const { redis, keys } = useRedis();

  function setup() {
    const k = keys();
    const store = createCampaignStore(redis, k);
    const read: string[] = [];
    // The store, counting whose transitions are read.
    const counted = {
      ...store,
      transitionsBetween: (id: string, from: number, to: number) => {
        read.push(id);
        return store.transitionsBetween(id, from, to);
      },
    };
    const def = JobDefinition.parse(experimentJob("exp"));
    return { k, store, counted, read, def };
  }

  /** What a look's figures say: each variant's counts, and the concurrent arms. */
  const figuresOf = (g: Awaited<ReturnType<typeof gatherExperiment>>) => ({
    variants: g!.figures.variants(),
    arms: [...g!.figures.concurrent("a", "b")],
  });

  it("a look reads again only the campaigns changed since, and finds what a fresh read finds", async () => {
    const { store, counted, read, def } = setup();
    const infos = [];
    for (let i = 0; i < 6; i++) infos.push(await seedExperimentCampaign(store, "exp", i, 12, T0));
    const kept = new ExperimentCampaigns(true);
    const look = async () => {
      read.length = 0;
      const ours = await gatherExperiment(def, { store: counted, kept }, Date.now() + 1);
      const fresh = await gatherExperiment(def, { store }, Date.now() + 1);
      expect(figuresOf(ours)).toEqual(figuresOf(fresh));
      return { ours, ids: [...read] };
    };

    expect((await look()).ids).toHaveLength(6);
    expect((await look()).ids).toEqual([]);

    await optOutLater(store, infos[2]!, 0, 2, T0 + 1);
    const withdrawn = { at: new Date(T0).toISOString(), withdrawn: 3 } as never;
    await store.noteStartCheck(infos[4]!.id, withdrawn);
    const after = await look();
    expect(after.ids).toEqual([infos[2]!.id, infos[4]!.id]);
    expect(after.ours!.figures.variants()[0]!.optedOut).toBe(1);
  });

  it("a campaign whose data expired leaves the figures and the job's index", async () => {
    const { k, store, counted, def } = setup();
    for (let i = 0; i < 3; i++) await seedExperimentCampaign(store, "exp", i, 12, T0);
    const kept = new ExperimentCampaigns(true);
    const before = await gatherExperiment(def, { store: counted, kept }, Date.now() + 1);
    expect(before!.figures.variants()[0]!.contactsCalled).toBe(24);
    await redis.del(k.campaign.meta("c000000"));
    const after = await gatherExperiment(def, { store: counted, kept }, Date.now() + 1);
    expect(after!.figures.variants()[0]!.contactsCalled).toBe(12);
    expect((await store.idsOf("exp")).sort()).toEqual(["c000001", "c000002"]);
  });
});
