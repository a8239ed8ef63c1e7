import { describe, expect, it } from "vitest";
import { pollStops } from "../../../src/pipeline/campaign/stopping/poll-stops.ts";
import { type StopCheckDeps, stopsDue } from "../../../src/pipeline/campaign/stopping/stop-checks.ts";
import { STOP_BASE_LEAD_MS, stopBeginsAt } from "../../../src/pipeline/campaign/stopping/window-close.ts";
import { emptyTotals } from "../../../src/pipeline/model/campaign-totals.ts";
import type { CampaignInfo } from "../../../src/pipeline/model/results.ts";
import { createCallFrequency } from "../../../src/pipeline/stores/call-frequency.ts";
import { createCampaignStore } from "../../../src/pipeline/stores/campaign-store.ts";
import { createContactLedger } from "../../../src/pipeline/stores/contact-ledger.ts";
import { createCreateMemo } from "../../../src/pipeline/stores/create-memo.ts";
import { createStopStore } from "../../../src/pipeline/stores/stop-store.ts";
import { createSuppressionList } from "../../../src/pipeline/stores/suppression.ts";
import { phoneOf, quietLogger } from "../../support/daemon.ts";
import { campaignOnOwnSegment, jobJ } from "../../support/own-campaign.ts";
import { useRedis } from "../../support/redis.ts";
import { useSimulator } from "../../support/simulator.ts";

/*
 * A window-close stop is done by `callUntil`, not begun there: a stop begun at the close let the
 * service dial whoever came next while its poll waited for a tick of the schedule (a minute by
 * default), listed the segment and deleted one contact after another (a dial 15 ms after the close
 * in a run of calling-edges.test.ts, with a schedule of a second).
 */
describe("when a window-close stop begins", () => {
  it("ahead of callUntil by a tick of the poll schedule, its deletes at the shared rate, and a base", () => {
    const until = Date.parse("2026-11-30T17:00:00Z");
    expect(stopBeginsAt(until, { undialled: 0, perSecond: 20, periodMs: 0 })).toBe(until - STOP_BASE_LEAD_MS);
    // 200 deletes at 20 a second: 10 s; the default schedule (a minute): 60 s.
    expect(stopBeginsAt(until, { undialled: 200, perSecond: 20, periodMs: 60_000 })).toBe(
      until - STOP_BASE_LEAD_MS - 60_000 - 10_000,
    );
    // A rate not known yet, or nonsense, paces no faster than one a second.
    expect(stopBeginsAt(until, { undialled: 3, perSecond: 0, periodMs: 0 })).toBe(
      until - STOP_BASE_LEAD_MS - 3_000,
    );
  });
});

describe("a started campaign near its window's close", () => {
  const t = useSimulator({ timeScale: 1, campaignSegment: "fixed" });
  const { redis, keys: freshKeys } = useRedis();

  async function closingIn(inMs: number, from: number) {
    const keys = freshKeys();
    const store = createCampaignStore(redis, keys);
    const deps = {
      client: t.client,
      memo: createCreateMemo(redis, keys),
      leaseMs: 30_000,
      ledger: createContactLedger(redis, { keys, leaseMs: 30_000 }),
      store,
      stops: createStopStore(redis, keys),
      suppression: createSuppressionList(redis, keys),
      frequency: createCallFrequency(redis, keys, { keepMs: 86_400_000 }),
      requestRate: async () => 100,
    } satisfies StopCheckDeps;
    const phones = [0, 1, 2, 3, 4].map((i) => phoneOf(from + i));
    const made = await campaignOnOwnSegment(t.client, deps, `lead-${keys.prefix}`, phones, {
      startsInMs: 60_000,
    });
    const now = Date.now();
    const info: CampaignInfo = { ...made.info(made.ids[0]!), audience: phones.length, callUntil: now + inMs };
    await store.register(info, now);
    return { deps, info, now, segmentId: made.segmentId };
  }

  it("is stopped a poll period and its deletes before callUntil: all five taken out while the window is open", async () => {
    const { deps, info, now, segmentId } = await closingIn(20_000, 1_100);
    const def = jobJ();
    const periodMs = 10_000;
    // 5 deletes at 100 a second: 50 ms. The stop begins at callUntil - 15.05 s.
    const begins = info.callUntil! - STOP_BASE_LEAD_MS - periodMs - 50;
    expect(await stopsDue(def, { info, totals: emptyTotals() }, deps, begins - 1, periodMs)).toEqual([]);
    const stops = await stopsDue(def, { info, totals: emptyTotals() }, deps, begins, periodMs);
    expect(stops).toMatchObject([{ reason: "window-closed", state: "stopped", taken: 5 }]);
    expect(begins).toBeLessThan(info.callUntil!);
    expect(begins).toBeGreaterThan(now);
    expect(await t.client.contacts.list(segmentId)).toEqual([]);
  });

  it("its next poll is made due when the stop begins, not at callUntil", async () => {
    const { deps, info } = await closingIn(120_000, 1_200);
    const periodMs = 30_000;
    const port = { ...deps, logger: quietLogger(), now: () => Date.now(), request: async () => {} };
    const due = await pollStops(port, jobJ(), info.id, periodMs).dueBy(info.callUntil! + 60_000);
    expect(due).toBe(info.callUntil! - STOP_BASE_LEAD_MS - periodMs - 50);
  });
});
