import { describe, expect, it } from "vitest";
import { redisKeys } from "../../../src/lib/redis-keys.ts";
import { pollCampaign } from "../../../src/pipeline/results/poll-campaign.ts";
import { createCallHistory } from "../../../src/pipeline/stores/call-history.ts";
import { createCampaignStore } from "../../../src/pipeline/stores/campaign-store.ts";
import { campaignInfo } from "../../support/fixtures.ts";
import { sendJson, startHttpServer } from "../../support/http-server.ts";
import { usePollCampaigns } from "../../support/poll.ts";
import { testClient } from "../../support/simulator.ts";

describe("pollCampaign reads each phone as the number it is, in the job's country", () => {
  const { redis, prefix, optionsOf } = usePollCampaigns();

  it("records, opt-outs and histories are keyed by E.164; a phone that is no number is kept as written, counted", async () => {
    const entry = (phone: string, status: string) => ({ phone, status, call_duration_in_sec: 12 });
    const audience = [
      entry("14155552001", "opted-out"),
      entry("(415) 555-2002", "completed"),
      entry("+1 415 555 2003", "opted-out"),
      entry("ask for Bob", "completed"),
    ];
    const service = await startHttpServer((_req, res) => sendJson(res, 200, audience));
    try {
      const p = prefix();
      const keys = redisKeys(p);
      const store = createCampaignStore(redis, keys);
      const history = createCallHistory(redis, keys, { keepMs: 60_000 });
      await store.register(campaignInfo({ id: "cmp_spell", name: "spell" }), Date.now());
      const o = { ...optionsOf(p, store, testClient({ url: service.url })), history, country: "US" as const };

      const first = await pollCampaign("cmp_spell", o);
      expect(first).toMatchObject({ changed: 4, optedOut: 2, state: "finished" });
      expect(first.unreadable).toEqual({
        fields: {},
        entriesLeftOut: 0,
        duplicatePhones: 0,
        phonesNotNormalized: 1,
      });
      expect(await o.suppression.list()).toEqual(["+14155552001", "+14155552003"]);
      expect(await redis.hkeys(keys.campaign.results("cmp_spell"))).toEqual(
        expect.arrayContaining(["+14155552001", "+14155552002", "+14155552003", "ask for Bob"]),
      );
      const records = await store.records("cmp_spell", ["+14155552002", "ask for Bob"]);
      expect(records.map((r) => r?.phone)).toEqual(["+14155552002", "ask for Bob"]);
      expect(await redis.hget(keys.calls("+14155552003"), "outcome")).toBe("opted-out");
      expect(await redis.exists(keys.calls("+1 415 555 2003"))).toBe(0);
      expect((await store.get("cmp_spell"))!.totals.unreadable?.phonesNotNormalized).toBe(1);
    } finally {
      await service.close();
    }
  });

  it("the same audience spelled another way is no change", async () => {
    const entry = (phone: string) => ({ phone, status: "ringing" });
    let audience = [entry("+14155552011"), entry("+14155552012")];
    const service = await startHttpServer((_req, res) => sendJson(res, 200, audience));
    try {
      const p = prefix();
      const store = createCampaignStore(redis, redisKeys(p));
      await store.register(campaignInfo({ id: "cmp_respell", name: "respell" }), Date.now());
      const o = { ...optionsOf(p, store, testClient({ url: service.url })), country: "US" as const };
      expect(await pollCampaign("cmp_respell", o)).toMatchObject({ changed: 2, version: 1 });
      audience = [entry("(415) 555-2011"), entry("1 415 555 2012")];
      expect(await pollCampaign("cmp_respell", o)).toMatchObject({ changed: 0, version: 1 });
    } finally {
      await service.close();
    }
  });
});
