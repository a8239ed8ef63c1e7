import { beforeAll, describe, expect, it } from "vitest";
import { useCallingDaemon } from "../support/calling-daemon.ts";
import { contactsCsv, drop, testSettings, waitFor } from "../support/daemon.ts";

const FILES = 4;

describe("creating a campaign reads the service's campaigns once, nothing more", () => {
  const h = useCallingDaemon({ timeScale: 1e-9 });
  const { t } = h;

  beforeAll(async () => {
    // A service with a past: campaigns and segments listing them would have to read.
    for (let i = 0; i < 20; i++) await t.client.segments.create({ name: `old ${i}` });
  });

  it(`${FILES} files, ${FILES} campaigns: a campaign listing and a create each, each segment looked up once`, async () => {
    const { home, inbox } = h.callingJob({ byId: true, schedule: "0 0 * * * *" });
    t.sim.stats.reset();
    const daemon = await h.start(testSettings(home, t.sim.url));
    for (let f = 0; f < FILES; f++) drop(inbox, `f${f}.csv`, contactsCsv(3, { from: 81_000 + f * 10 }));
    await waitFor(
      async () => ((await daemon.queues.campaigns.getCompletedCount()) === FILES ? true : undefined),
      60_000,
      "every campaign created",
    );
    const byOp = Object.fromEntries(
      [...t.sim.stats.byOperation].map(([op, s]) => [op, [...s.values()].reduce((a, b) => a + b, 0)]),
    );
    console.log(`requests for ${FILES} files of 3 contacts: ${JSON.stringify(byOp)}`);
    expect(byOp["campaigns.create"]).toBe(FILES);
    // Each create lists the name first: Redis may have lost the memo of one applied (decision 0064).
    expect(byOp["campaigns.list"]).toBe(FILES);
    // The job's segment (maybe the operator's) and each file's own: a memo lost with Redis is no proof of none.
    expect(byOp["segments.list"]).toBe(1 + FILES);
  }, 90_000);

  it("polls of campaigns whose create went once list no campaigns (a late copy needs a re-sent create)", async () => {
    const { home, inbox } = h.callingJob({ byId: true, schedule: "* * * * * *" });
    const daemon = await h.start(testSettings(home, t.sim.url));
    for (let f = 0; f < 2; f++) drop(inbox, `p${f}.csv`, contactsCsv(3, { from: 82_000 + f * 10 }));
    await waitFor(
      async () => ((await daemon.queues.campaigns.getCompletedCount()) === 2 ? true : undefined),
      60_000,
      "both campaigns created",
    );
    // Past their checks and first polls: from here on only polls read the service.
    const count = (op: string) =>
      [...(t.sim.stats.byOperation.get(op)?.values() ?? [])].reduce((a, b) => a + b, 0);
    await waitFor(async () => (count("campaigns.audiences") >= 4 ? true : undefined), 30_000, "first polls");
    t.sim.stats.reset();
    await waitFor(
      async () => (count("campaigns.audiences") >= 8 ? true : undefined),
      30_000,
      "four ticks of polls",
    );
    // Before: every poll tick listed the account's campaigns (one listing a tick, whatever the account holds).
    expect(count("campaigns.list")).toBe(0);
  }, 120_000);
});
