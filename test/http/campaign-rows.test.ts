import { describe, expect, it } from "vitest";
import {
  type CampaignRow,
  maskedRow,
  phaseOf,
  queryRows,
  timeline,
  toRow,
} from "../../src/http/campaign-rows.ts";
import type { StoredCampaign } from "../../src/pipeline/stores/campaign-store.ts";
import { startCheckResult } from "../support/fixtures.ts";

const NOW = Date.parse("2026-11-23T16:00:00Z");

function stored(i: number, o: Partial<StoredCampaign["info"]> = {}): StoredCampaign {
  return {
    info: {
      id: `cmp_${i}`,
      name: `leads ${i}`,
      job: i % 2 ? "odd" : "even",
      file: `f${i}.csv`,
      sha256: "x",
      gen: 0,
      segmentId: "s",
      scheduledAt: new Date(NOW - i * 86_400_000).toISOString(),
      state: "active",
      attempt: 0,
      followUps: [],
      ...o,
    },
    totals: {
      contacts: 10,
      final: i % 10,
      byStatus: { completed: i % 10 },
      meetings: 0,
      transfers: 0,
    } as never,
    version: 1,
    digest: "",
    createdAt: NOW - i * 86_400_000,
    lastChangeAt: 0,
    endedAt: 0,
    sentVersion: 0,
  };
}

describe("the campaigns view's rows", () => {
  it("a campaign before its start is waiting, then calling; ended ones keep their state", () => {
    expect(phaseOf(stored(0, { scheduledAt: "2026-11-24T16:00:00Z" }), NOW)).toBe("waiting");
    expect(phaseOf(stored(1), NOW)).toBe("calling");
    expect(phaseOf(stored(1, { state: "finished" }), NOW)).toBe("finished");
    expect(phaseOf(stored(1, { state: "stuck" }), NOW)).toBe("stuck");
  });

  it("a campaign still calling after its window's closing time that day is past its window", () => {
    const window = {
      campaign: { start: { window: { from: "08:00", to: "11:00", timezone: "America/Los_Angeles" } } },
    } as never;
    // Started 08:00 in Los Angeles (16:00 UTC, standard time); the window closes at 11:00 there.
    const started = stored(0, { scheduledAt: "2026-11-23T16:00:00Z" });
    expect(phaseOf(started, Date.parse("2026-11-23T18:59:00Z"), window)).toBe("calling");
    expect(phaseOf(started, Date.parse("2026-11-23T19:00:00Z"), window)).toBe("past-window");
    expect(phaseOf(started, Date.parse("2026-11-23T19:00:00Z"))).toBe("calling");
  });

  it("a campaign the check before its start repaired carries its badge's figures; one checked with nothing to repair none", () => {
    const check = {
      at: "2026-11-23T15:59:55Z",
      campaignsListed: 2,
      contactsListed: 12,
      phonesListed: 10,
      duplicatesRemoved: 2,
      withdrawn: 1,
      campaignsRepaired: 1,
      repairedInto: "leads 1 repaired 1",
    };
    expect(toRow({ ...stored(1), startCheck: check }, undefined, NOW).repaired).toEqual({
      duplicatesRemoved: 2,
      withdrawn: 1,
      campaignsRepaired: 1,
      repairedInto: "leads 1 repaired 1",
    });
    const clean = { ...check, campaignsListed: 1, duplicatesRemoved: 0, withdrawn: 0, campaignsRepaired: 0 };
    expect(toRow({ ...stored(1), startCheck: clean }, undefined, NOW)).not.toHaveProperty("repaired");
    expect(toRow(stored(1), undefined, NOW)).not.toHaveProperty("repaired");
  });

  it("a campaign with late copies taken on carries them in its badge, with the calls made twice, as `vcw campaigns` says them", () => {
    const check = startCheckResult();
    // Found at a poll, both copies started: every person called twice.
    const twice = { ...check, copiesAdopted: 1, adoptedAfterCheck: 1, calledTwice: 20 };
    expect(toRow({ ...stored(1), startCheck: twice }, undefined, NOW).repaired).toEqual({
      duplicatesRemoved: 0,
      withdrawn: 0,
      campaignsRepaired: 0,
      copiesAdopted: 1,
      calledTwice: 20,
      lateCopies: "1 late copy taken on, 20 calls made twice",
    });
    // Found before the start, its own copy emptied: nobody called twice.
    const once = { ...check, copiesAdopted: 2, adoptedAfterCheck: 2 };
    expect(toRow({ ...stored(1), startCheck: once }, undefined, NOW).repaired).toEqual({
      duplicatesRemoved: 0,
      withdrawn: 0,
      campaignsRepaired: 0,
      copiesAdopted: 2,
      lateCopies: "2 late copies taken on",
    });
  });

  it("masks a phone in the name of the campaign a repair made", () => {
    const check = startCheckResult({
      campaignsRepaired: 1,
      repairedInto: "leads call +1 415 555 0199.csv repaired 1",
    });
    const row = maskedRow(toRow({ ...stored(1), startCheck: check }, undefined, NOW));
    expect(row.repaired?.repairedInto).not.toContain("555 0199");
    expect(row.repaired?.repairedInto).toMatch(/^leads call \+1.*repaired 1$/);
  });

  it("reads the zone from the campaign, else from its job's window, else UTC", () => {
    const window = {
      campaign: { start: { window: { from: "00:00", to: "23:59", timezone: "America/Los_Angeles" } } },
      polling: { statuses: { reached: ["completed"] } },
    } as never;
    expect(toRow(stored(1, { zone: "America/New_York" }), window, NOW).zone).toBe("America/New_York");
    expect(toRow(stored(1), window, NOW).zone).toBe("America/Los_Angeles");
    expect(toRow(stored(1), undefined, NOW).zone).toBe("UTC");
  });

  it("filters by job, state, zone and dates, newest first, a page at a time", () => {
    const rows: CampaignRow[] = Array.from({ length: 250 }, (_, i) =>
      toRow(stored(i, i === 7 ? { state: "stuck", zone: "Europe/Paris" } : {}), undefined, NOW),
    );
    const first = queryRows(rows, { page: 1, per: 50 });
    expect(first.total).toBe(250);
    expect(first.rows.map((r) => r.id).slice(0, 2)).toEqual(["cmp_0", "cmp_1"]);
    expect(queryRows(rows, { page: 5, per: 50 }).rows.at(-1)!.id).toBe("cmp_249");
    expect(queryRows(rows, { page: 6, per: 50 }).rows).toEqual([]);
    expect(queryRows(rows, { job: "odd", page: 1, per: 500 }).total).toBe(125);
    expect(queryRows(rows, { phase: "stuck", page: 1, per: 50 }).rows.map((r) => r.id)).toEqual(["cmp_7"]);
    expect(queryRows(rows, { zone: "Europe/Paris", page: 1, per: 50 }).total).toBe(1);
    const days = queryRows(rows, { from: "2026-11-20", to: "2026-11-22", page: 1, per: 50 });
    expect(days.rows.map((r) => r.id)).toEqual(["cmp_1", "cmp_2", "cmp_3"]);
  });

  it("groups status changes by the poll that saw them, oldest first", () => {
    expect(
      timeline([
        { to: "ringing", at: 2 },
        { to: "completed", at: 5 },
        { to: "ringing", at: 2 },
        { to: "busy", at: 5 },
      ]),
    ).toEqual([
      { at: 2, to: { ringing: 2 } },
      { at: 5, to: { completed: 1, busy: 1 } },
    ]);
  });

  it("counts a status named like an object's property as any other (issue 43)", () => {
    const [poll] = timeline([
      { to: "constructor", at: 2 },
      { to: "__proto__", at: 2 },
      { to: "constructor", at: 2 },
    ]);
    expect(Object.entries(poll!.to).sort()).toEqual([
      ["__proto__", 1],
      ["constructor", 2],
    ]);
  });
});
