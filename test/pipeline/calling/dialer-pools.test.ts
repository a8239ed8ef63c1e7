import { describe, expect, it } from "vitest";
import { DialerPool } from "../../../src/config/dialer-pool-definition.ts";
import { JobDefinition } from "../../../src/config/job-definition.ts";
import type { GrantCalls } from "../../../src/pipeline/calling/dialer-assignment.ts";
import { rankDialers } from "../../../src/pipeline/calling/dialer-match.ts";
import { dialerSharesOf } from "../../../src/pipeline/calling/dialer-pool.ts";
import { numberHealth } from "../../../src/pipeline/calling/number-health.ts";

/** Issue 47: matching callees to a pool's numbers, and sharing them out under per-number budgets. */
const POOL = [
  { name: "sf", number: "+14152000100" },
  { name: "ny", number: "+12122000100" },
  { name: "chi", number: "+13122000100" },
];
const AT = Date.parse("2027-01-12T15:00:00Z");
const DAY = 86_400_000;

/** A budget kept in memory as Redis keeps it: `perDay` calls per number per UTC day, grants by field. */
function memoryBudget(perDay: number): GrantCalls & { used: Map<string, number> } {
  const used = new Map<string, number>();
  const grants = new Map<string, number>();
  const grant: GrantCalls = async (d, field, n, at) => {
    const kept = grants.get(field);
    if (kept !== undefined) return kept;
    const bucket = `${d.number}|${new Date(at).toISOString().slice(0, 10)}`;
    const g = Math.max(0, Math.min(n, perDay - (used.get(bucket) ?? 0)));
    used.set(bucket, (used.get(bucket) ?? 0) + g);
    grants.set(field, g);
    return g;
  };
  return Object.assign(grant, { used });
}

const phones415 = (n: number) => Array.from({ length: n }, (_, i) => `+1415300${String(i).padStart(4, "0")}`);

describe("rankDialers", () => {
  it("orders the pool by the job's match list: area code, state, zone, any", () => {
    const match = ["areaCode", "state", "zone", "any"] as const;
    expect(rankDialers("+14152000001", POOL, match)[0]).toMatchObject({ name: "sf", why: "area code 415" });
    expect(rankDialers("+13122000001", POOL, match)[0]).toMatchObject({ name: "chi", why: "area code 312" });
    // Boston: no 617 number, no Massachusetts one: New York's shares its zone.
    expect(rankDialers("+16172000001", POOL, match)[0]).toMatchObject({
      name: "ny",
      why: "zone America/New_York",
    });
    // San Diego: California's number by state.
    expect(rankDialers("+16192000001", POOL, match)[0]).toMatchObject({ name: "sf", why: "state CA" });
  });

  it("leaves a callee no listed match reaches without a dialer", () => {
    expect(rankDialers("+16172000001", POOL, ["areaCode", "state"])).toEqual([]);
    expect(rankDialers("+442071234567", POOL, ["areaCode", "zone", "any"]).map((d) => d.name)).toEqual([
      "sf",
      "ny",
      "chi",
    ]);
  });
});

describe("dialerSharesOf under a budget of 10 a day", () => {
  const pool = (whenSpent: "next" | "wait") =>
    DialerPool.parse({
      pool: [
        { id: "sf", number: POOL[0]!.number },
        { id: "ny", number: POOL[1]!.number },
        { id: "chi", number: POOL[2]!.number },
      ],
      perNumber: { perDay: 10, whenSpent },
    });

  it("next: 25 callees in 415 go 10 to San Francisco, the rest to their next match, none over", async () => {
    const budget = memoryBudget(10);
    const r = await dialerSharesOf(pool("next"), POOL, phones415(25), AT, "k", budget);
    expect(r.shares.map((s) => [s.dialer, s.phones.length, s.from])).toEqual([
      ["sf", 10, undefined],
      ["ny", 10, undefined],
      ["chi", 5, undefined],
    ]);
    expect(r.shares[1]!.matched).toEqual({ any: 10 });
    expect(Math.max(...budget.used.values())).toBe(10);
  });

  it("wait: 25 callees in 415 are 10 today, 10 tomorrow and 5 the day after, all from 415", async () => {
    const budget = memoryBudget(10);
    const r = await dialerSharesOf(pool("wait"), POOL, phones415(25), AT, "k", budget);
    const tomorrow = Date.parse("2027-01-13T00:00:00Z");
    expect(r.shares.map((s) => [s.dialer, s.phones.length, s.from])).toEqual([
      ["sf", 10, undefined],
      ["sf", 10, tomorrow],
      ["sf", 5, tomorrow + DAY],
    ]);
    expect(r.unplaced).toEqual([]);
  });

  it("a retry meets the same grants and makes the same shares (nothing counted twice)", async () => {
    const budget = memoryBudget(10);
    const first = await dialerSharesOf(pool("next"), POOL, phones415(25), AT, "k", budget);
    const again = await dialerSharesOf(pool("next"), POOL, phones415(25), AT, "k", budget);
    expect(again).toEqual(first);
    expect([...budget.used.values()].reduce((a, b) => a + b, 0)).toBe(25);
  });

  it("another file the same day finds the numbers spent: it waits for the next day", async () => {
    const budget = memoryBudget(10);
    await dialerSharesOf(pool("next"), POOL, phones415(30), AT, "file-a", budget);
    const b = await dialerSharesOf(pool("next"), POOL, ["+14153009999"], AT, "file-b", budget);
    expect(b.shares).toEqual([
      expect.objectContaining({ dialer: "sf", from: Date.parse("2027-01-13T00:00:00Z") }),
    ]);
  });
});

describe("campaign.dialers in a job", () => {
  const job = (campaign: Record<string, unknown>) =>
    JobDefinition.safeParse({
      name: "j",
      inbox: "/tmp/in",
      segment: { name: "s" },
      campaign: { assistant: { id: "a" }, ...campaign },
    });

  it("takes a pool instead of one dialer, its first standing for the job", () => {
    const r = job({ dialers: { pool: [{ resource: "sf-line" }, { id: "d2", number: "+12122000100" }] } });
    expect(r.success && r.data.campaign?.dialer).toEqual({ resource: "sf-line" });
    expect(r.success && r.data.campaign?.dialers?.match).toEqual(["areaCode", "state", "zone", "any"]);
  });

  it("refuses both, neither, an id without its number and a dialer named twice, each by its field", () => {
    const issues = (c: Record<string, unknown>) => {
      const r = job(c);
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    };
    expect(issues({ dialer: { id: "d" }, dialers: { pool: [{ resource: "x" }] } })).toEqual([
      "campaign.dialer: names a dialer besides a pool: put it in campaign.dialers.pool (remove campaign.dialer)",
    ]);
    expect(issues({})).toEqual([
      "campaign.dialer: is required: the dialer that calls (or campaign.dialers for a pool)",
    ]);
    expect(issues({ dialers: { pool: [{ id: "d" }] } })[0]).toMatch(
      /^campaign\.dialers: pool\.0: .*an id needs its number/,
    );
    expect(issues({ dialers: { pool: [{ resource: "x" }, { resource: "x" }] } })).toEqual([
      "campaign.dialers.pool: names a dialer twice",
    ]);
    // A pool of resources/ by name is the other branch: its problem, not the inline pool's.
    expect(issues({ dialers: { resource: "east" } })).toEqual([
      'campaign.dialers: names dialerPool "east", which was not read from the resource files',
    ]);
  });
});

describe("numberHealth: a two-proportion z-test against the rest of the pool", () => {
  const tally = (number: string, calls: number, answered: number) => ({ number, calls, answered, short: 0 });

  it("rests a number answered 5% of the time when the others are answered 55%", () => {
    const h = numberHealth([tally("+1415", 40, 22), tally("+1212", 40, 2), tally("+1312", 40, 23)]);
    expect(h.map((x) => x.rest)).toEqual([false, true, false]);
    expect(h[1]!.z).toBeLessThan(-4);
    expect(h[1]!.poolAnswerRate).toBeCloseTo(45 / 80);
  });

  it("rests none below the minimum sample, nor a number within chance of the pool", () => {
    expect(numberHealth([tally("a", 29, 0), tally("b", 40, 30)]).some((x) => x.rest)).toBe(false);
    // 40% against 55% over 40 calls each: z about -1.3, within chance.
    expect(numberHealth([tally("a", 40, 16), tally("b", 40, 22)]).some((x) => x.rest)).toBe(false);
  });
});
