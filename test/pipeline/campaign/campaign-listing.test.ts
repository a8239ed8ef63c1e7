import { describe, expect, it } from "vitest";
import { namedIn, sharedCampaignListing } from "../../../src/pipeline/campaign/campaign-listing.ts";
import { startProxy } from "../../support/proxy.ts";
import { testClient, useSimulator } from "../../support/simulator.ts";

/** Issue 42 item 5: the start checks due in one tick share one listing of the account's campaigns. */
describe("the start checks' shared campaign listing", () => {
  const t = useSimulator();

  it("one request for the checks due together; another once it is no longer fresh; a failed one serves nobody", async () => {
    let lists = 0;
    let failNext = false;
    const proxy = await startProxy(t.sim.url, (req) => {
      if (!req.url?.endsWith("/campaign/list")) return undefined;
      lists += 1;
      if (failNext) {
        failNext = false;
        return { answer: 400 };
      }
      return undefined;
    });
    try {
      let now = 0;
      // The clock is the test's: freshness is counted on it.
      const list = sharedCampaignListing(testClient(proxy, { maxRetries: 0 }), { now: () => now });
      const listings = await Promise.all(Array.from({ length: 50 }, () => list()));
      expect(lists).toBe(1);
      expect(new Set(listings).size).toBe(1);
      now = 999;
      await list();
      expect(lists).toBe(1);
      now = 1_000;
      failNext = true;
      const failed = await Promise.allSettled([list(), list()]);
      expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
      expect(lists).toBe(2);
      // Within the second of the failed request, still: the next check lists again.
      await list();
      expect(lists).toBe(3);
    } finally {
      await proxy.close();
    }
  });

  it("a poll's look is served by any listing requested since its tick: one listing per tick", async () => {
    let lists = 0;
    const proxy = await startProxy(t.sim.url, (req) => {
      if (req.url?.endsWith("/campaign/list")) lists += 1;
      return undefined;
    });
    try {
      let now = 10_000;
      const list = sharedCampaignListing(testClient(proxy, { maxRetries: 0 }), { now: () => now });
      await list(10_000);
      // Later polls of the same tick, well past the checks' freshness: the same listing.
      now = 25_000;
      await Promise.all([list(10_000), list(9_000)]);
      expect(lists).toBe(1);
      // The next tick's polls: a new one.
      await list(20_000);
      expect(lists).toBe(2);
    } finally {
      await proxy.close();
    }
  });

  it("finds a name's campaigns in a listing", () => {
    const listing = [
      { id: "a", campaigns_name: "x" },
      { id: "b", campaigns_name: "y" },
      { id: "c", campaigns_name: "x" },
    ];
    expect(namedIn(listing, "x").map((c) => c.id)).toEqual(["a", "c"]);
    expect(namedIn(listing, "z")).toEqual([]);
  });
});
