import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createCampaignStore } from "../../src/pipeline/stores/campaign-store.ts";
import type { StoredCampaign } from "../../src/simulator/store.ts";
import { useCallingDaemon } from "../support/calling-daemon.ts";
import { illegalInstants, NANP_TABLE, TABLE, type Truth, withCells } from "../support/calling-oracle.ts";
import { drop, summaryOf, testSettings, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { useRedis } from "../support/redis.ts";

/*
 * Issue 43 item 5 end to end: the real daemon on the simulator plans the oracle's edge rows (a zone
 * or state column that disagrees with the number, both columns, Canadian numbers under the `us`
 * rules) and creates their campaigns; every instant of each, and of its hand-back, from the start
 * the service was given to the callUntil vcw keeps, is legal in every zone the callee may be in
 * (test/support/calling-oracle.ts). A Canadian callee the rules don't reach, with no window of
 * theirs, is not called.
 */
const MARGIN = 15 * 60_000;
const MIAMI = TABLE.find((t) => t.place === "Miami FL (305)")!;
const VANCOUVER = NANP_TABLE.find((t) => t.phone === "+16046830000")!;
/** The oracle's number, under another phone of the same exchange (a file holds each phone once). */
const as = (truth: Truth, phone: string): Truth => ({ ...truth, phone });

/** Rows of a file: the number's truth and the file's cells, each truth read with its cells. */
const ASAP: [Truth, { region?: string; timezone?: string }][] = [
  [as(MIAMI, "+13055550111"), { timezone: "Pacific Time" }],
  [as(MIAMI, "+13055550112"), { region: "FL", timezone: "CT" }],
  [as(VANCOUVER, "+16046830011"), { region: "FL" }],
  [as(VANCOUVER, "+16046830012"), {}],
];
const WINDOWED: typeof ASAP = [
  [as(VANCOUVER, "+16046830013"), {}],
  [as(VANCOUVER, "+16046830014"), { timezone: "Mountain Daylight Time" }],
  [as(MIAMI, "+13055550113"), { timezone: "Pacific Time" }],
];

const csv = (rows: typeof ASAP) =>
  `First Name,Phone,State,Time Zone\n${rows
    .map(([t, c], i) => `C${i},${t.phone},"${c.region ?? ""}","${c.timezone ?? ""}"`)
    .join("\n")}\n`;

describe("the daemon at the last edges of calling hours (issue 43)", () => {
  const h = useCallingDaemon({ timeScale: 1 });
  const { redis } = useRedis();

  it("every campaign it creates, and its hand-back, is legal in the number's zones and every column's", async () => {
    const home = tempDir("vcw-zones-");
    mkdirSync(join(home, "jobs"));
    const tag = randomBytes(3).toString("hex");
    const job = (name: string, start: string) =>
      writeFileSync(
        join(home, "jobs", `${name}.yaml`),
        [
          `name: ${name}`,
          `inbox: ${join(home, "inbox", name)}`,
          `segment: { name: ${name}-${tag} }`,
          "contacts: { country: US }",
          "campaign:",
          `  assistant: { id: ${h.made.assistantId} }`,
          `  dialer: { id: ${h.made.dialerId} }`,
          `  name: "${name}-${tag} {file}"`,
          `  start: ${start}`,
          "calling:",
          "  rules: [us]",
          "  callsPerMinute: 100",
          "  location: { fallbackTimezone: America/Chicago }",
        ].join("\n"),
      );
    job("asap", "asap");
    job(
      "windowed",
      "{ window: { days: [sun, mon, tue, wed, thu, fri, sat], from: '08:00', to: '21:00', timezone: callee } }",
    );
    const settings = testSettings(home, h.t.sim.url);
    await h.start(settings);
    drop(join(home, "inbox", "asap"), "edges.csv", csv(ASAP));
    drop(join(home, "inbox", "windowed"), "edges.csv", csv(WINDOWED));
    const summaries = {
      asap: await waitFor(() => summaryOf(join(home, "inbox", "asap"), "edges.csv"), 60_000, "asap"),
      windowed: await waitFor(
        () => summaryOf(join(home, "inbox", "windowed"), "edges.csv"),
        60_000,
        "windowed",
      ),
    };
    const store = createCampaignStore(redis, redisKeys(settings.prefix.value));
    const truths = new Map([...ASAP, ...WINDOWED].map(([t, cells]) => [t.phone, withCells(t, cells)]));
    const called = new Set<string>();
    for (const [name, extra] of [
      ["asap", []],
      ["windowed", [["08:00", "21:00"] as const]],
    ] as const) {
      // Every contact its summary says its campaigns hold, filed in their segments.
      const audience = summaries[name].audience as { campaigns: { contacts: number }[] };
      const rows = audience.campaigns.reduce((n, c) => n + c.contacts, 0);
      const made = await waitFor(
        () => {
          const mine = h.t.sim.store
            .list<StoredCampaign>("campaigns")
            .filter((c) => String(c.fields.campaigns_name).startsWith(`${name}-${tag} `));
          const phones = mine.flatMap((c) => h.t.sim.store.contactsOf(c.segmentId));
          return phones.length === rows ? mine : undefined;
        },
        60_000,
        `${name} campaigns`,
      );
      const checked = [];
      for (const c of made) {
        const info = (await waitFor(async () => (await store.get(c.id)) ?? undefined, 30_000, "recorded"))
          .info;
        const phones = h.t.sim.store.contactsOf(c.segmentId).map((m) => m.fields.phone as string);
        for (const phone of phones) called.add(phone);
        // The service starts a campaign scheduled now at its own now, a few ms later: the earlier.
        checked.push({
          phones,
          scheduledAt: Math.min(c.startAt, Date.parse(info.scheduledAt)),
          callUntil: info.callUntil!,
          hours: info.hours as never,
        });
      }
      const found = illegalInstants(checked, (phone) => truths.get(phone)!, extra, MARGIN);
      expect(found.illegal, name).toEqual([]);
      expect(found.checked, name).toBeGreaterThan(0);
    }
    // The Canadian number the us rules don't reach, in a job with no window of theirs: not called.
    const skipped = (summaries.asap.audience as { skipped?: Record<string, number> }).skipped;
    expect(skipped).toEqual({ no_rule_set: 1 });
    expect([...called].sort()).toEqual([...truths.keys()].filter((p) => p !== "+16046830012").sort());
  }, 180_000);
});
