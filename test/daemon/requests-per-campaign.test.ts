import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { callingJob } from "../support/calling-job.ts";
import { contactsCsv, drop, quietLogger, testSettings, waitFor } from "../support/daemon.ts";
import { validAssistant, validDialer } from "../support/fixtures.ts";
import { useSimulator } from "../support/simulator.ts";

const FILES = 4;

describe("creating a campaign reads none of the service's history", () => {
  const t = useSimulator({ timeScale: 1e-9 });
  let daemon: Daemon | undefined;
  let assistantId: string;
  let dialerId: string;

  beforeAll(async () => {
    assistantId = (await t.client.assistants.create(validAssistant())).id!;
    dialerId = (await t.client.dialers.create(validDialer())).id!;
    // A service with a past: campaigns and segments listing them would have to read.
    for (let i = 0; i < 20; i++) await t.client.segments.create({ name: `old ${i}` });
  });
  afterEach(async () => {
    await daemon?.close();
  });

  it(`${FILES} files, ${FILES} campaigns: one create each, no campaign listed, the job's segment looked up once`, async () => {
    const { home, inbox } = callingJob({ assistant: { id: assistantId }, dialerId, schedule: "0 0 * * * *" });
    t.sim.stats.reset();
    daemon = await startDaemon({
      settings: testSettings(home, t.sim.url),
      logger: quietLogger(),
      watch: true,
      work: true,
    });
    await daemon.ready;
    for (let f = 0; f < FILES; f++) drop(inbox, `f${f}.csv`, contactsCsv(3, { from: 81_000 + f * 10 }));
    await waitFor(
      async () => ((await daemon!.queues.campaigns.getCompletedCount()) === FILES ? true : undefined),
      60_000,
      "every campaign created",
    );
    const byOp = Object.fromEntries(
      [...t.sim.stats.byOperation].map(([op, s]) => [op, [...s.values()].reduce((a, b) => a + b, 0)]),
    );
    console.log(`requests for ${FILES} files of 3 contacts: ${JSON.stringify(byOp)}`);
    expect(byOp["campaigns.create"]).toBe(FILES);
    expect(byOp["campaigns.list"] ?? 0).toBe(0);
    expect(byOp["segments.list"]).toBe(1); // the job's segment, which may be the operator's
  }, 90_000);
});
