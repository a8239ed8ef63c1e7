import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { beforeAll, beforeEach } from "vitest";
import type { Client } from "../../src/api/index.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createStopStore } from "../../src/pipeline/stores/stop-store.ts";
import type { Simulator } from "../../src/simulator/server.ts";
import type { StoredCampaign } from "../../src/simulator/store.ts";
import { callingJob } from "./calling-job.ts";
import { contactsCsv, drop, phoneOf, waitFor } from "./daemon.ts";
import { validAssistant, validDialer } from "./fixtures.ts";
import { useRedis } from "./redis.ts";
import { useSimulator } from "./simulator.ts";

/*
 * A campaign stopped while it calls: its window closes (the planner's `callUntil` in its meta) or
 * an operator stops it. Real time on both sides (time scale 1): one dial a second, every call
 * busy, so a 30-contact campaign dials for 30 s and the close comes after about 8.
 */
export const CALL_MODEL = {
  pacingMs: 1_000,
  outcomes: { completed: 0, "no-answer": 0, busy: 1, voicemail: 0, failed: 0, "opted-out": 0 },
};
export const N = 30;

/** A calling job open all day in UTC: the next opening after today's close is tomorrow 00:00 UTC. */
export const callingHome = (assistant: string, dialerId: string) =>
  callingJob({
    assistant: { name: assistant },
    dialerId,
    window: "{ days: [mon, tue, wed, thu, fri, sat, sun], from: '00:00', to: '23:59', timezone: UTC }",
  });

/** The simulator's record of the job's first campaign (not a resumed one). */
export function simCampaign(sim: Simulator, name: string): StoredCampaign | undefined {
  return sim.store
    .list<StoredCampaign>("campaigns")
    .find(
      (c) =>
        String(c.fields.campaigns_name).startsWith(`${name} `) &&
        !String(c.fields.campaigns_name).includes("resumed"),
    );
}

export function useCallingSetup(mode: "live" | "fixed") {
  const t = useSimulator({ timeScale: 1, callModel: CALL_MODEL, campaignSegment: mode });
  const { redis } = useRedis();
  const ref = { assistant: "", dialerId: "" };
  beforeAll(async () => {
    ref.assistant = `Closer ${randomBytes(3).toString("hex")}`;
    await t.client.assistants.create(validAssistant({ name: ref.assistant }));
    ref.dialerId = (await t.client.dialers.create(validDialer())).id!;
  });
  // The window closes at 23:59 UTC: a file planned after it would wait for tomorrow, so none starts in the last 3 minutes.
  beforeEach(async () => {
    const left = 86_400_000 - (Date.now() % 86_400_000);
    if (left < 180_000) await sleep(left + 1_000);
  }, 200_000);
  return { t, redis, ref };
}

/** Drops N contacts and, once the campaign is known to vcw, gives it a `callUntil` `inMs` ahead. */
export async function campaignClosingIn(
  s: ReturnType<typeof useCallingSetup>,
  home: ReturnType<typeof callingHome>,
  prefix: string,
  inMs: number,
) {
  drop(home.inbox, "leads.csv", contactsCsv(N, { from: 700_000 }));
  const sim = await waitFor(() => simCampaign(s.t.sim, home.name), 30_000, "campaign created");
  const keys = redisKeys(prefix);
  await waitFor(
    async () => ((await s.redis.exists(keys.campaign.meta(sim.id))) ? true : undefined),
    20_000,
    "registered",
  );
  const callUntil = Date.now() + inMs;
  await s.redis.hset(keys.campaign.meta(sim.id), "callUntil", String(callUntil));
  return { sim, keys, callUntil, stops: createStopStore(s.redis, keys) };
}

/** Phones of the audience members the simulator dialled (or will: `fixed`), and when. */
export function dialled(c: StoredCampaign, mode: "live" | "fixed") {
  return (c.audience ?? []).filter(
    (m) => mode === "fixed" || m.withdrawnAt === undefined || m.withdrawnAt >= m.plan.dialAt,
  );
}

export async function audiencePhones(client: Client, id: string) {
  return (await client.campaigns.audiences(id)).map((e) => e.phone!);
}

export const all = Array.from({ length: N }, (_, i) => phoneOf(700_000 + i));
