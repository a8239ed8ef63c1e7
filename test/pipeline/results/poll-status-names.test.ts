import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadJobs } from "../../../src/config/load-jobs.ts";
import { redisKeys } from "../../../src/lib/redis-keys.ts";
import { summarize } from "../../../src/pipeline/model/campaign-totals.ts";
import { gatherReport } from "../../../src/pipeline/reports/gather-report.ts";
import { reportText } from "../../../src/pipeline/reports/report-text.ts";
import { pollCampaign } from "../../../src/pipeline/results/poll-campaign.ts";
import { createCampaignStore } from "../../../src/pipeline/stores/campaign-store.ts";
import { createSuppressionList } from "../../../src/pipeline/stores/suppression.ts";
import { summaryLines } from "../../../src/sinks/summary-text.ts";
import { tempDir } from "../../support/files.ts";
import { campaignInfo, validAssistant, validDialer } from "../../support/fixtures.ts";
import { useRedis } from "../../support/redis.ts";
import { useSimulator } from "../../support/simulator.ts";

/** A service whose final statuses are named like Object.prototype's properties. */
const NAMES = { completed: "constructor", busy: "__proto__", "no-answer": "toString", voicemail: "valueOf" };
/** As vcw reads them: statuses are compared in lower case. */
const FINAL = Object.values(NAMES).map((s) => s.toLowerCase());

describe("statuses named like Object.prototype's properties, from the service to a summary and a report (issue 43)", () => {
  const t = useSimulator({
    timeScale: 1e-9,
    callModel: {
      outcomes: { completed: 1, busy: 1, "no-answer": 1, voicemail: 1, failed: 0, "opted-out": 0 },
      statusNames: NAMES,
    },
  });
  const { redis, prefix } = useRedis();

  it("are counted as ordinary statuses", async () => {
    const p = prefix();
    const client = t.client;
    const segment = (await client.segments.create({ name: `names-${p}` })).id!;
    for (let i = 0; i < 40; i++)
      await client.contacts.create(segment, { phone: `+1415555${String(3000 + i)}`, first_name: `P${i}` });
    const id = (
      await client.campaigns.create({
        campaigns_name: `names-${p}`,
        assistant_id: (await client.assistants.create(validAssistant())).id!,
        contacts_id: segment,
        dialer_id: (await client.dialers.create(validDialer())).id!,
      })
    ).id!;
    const store = createCampaignStore(redis, redisKeys(p));
    const info = campaignInfo({ id, name: `names-${p}`, segmentId: segment });
    await store.register(info, Date.now());
    const classes = { final: FINAL, retry: [], optedOut: [], pending: ["queued", "ringing", "in-progress"] };
    const poll = () =>
      pollCampaign(id, {
        client,
        store,
        suppression: createSuppressionList(redis, redisKeys(p)),
        classes: { ...classes, unknownIs: "pending" as const },
        stuckAfterMs: 3_600_000,
      });
    await poll();
    t.sim.clock.advance(3_600_000);
    expect(await poll()).toMatchObject({ state: "finished", ended: true });

    // What the service says, counted here with a Map.
    const said = new Map<string, number>();
    for (const e of await client.campaigns.audiences(id)) {
      const status = String(e.status).toLowerCase();
      said.set(status, (said.get(status) ?? 0) + 1);
    }
    const expected = [...said].sort();
    expect(expected.map(([status]) => status)).toEqual([...FINAL].sort());

    const { totals } = (await store.get(id))!;
    expect(Object.entries(totals.byStatus).sort()).toEqual(expected);
    expect(totals).toMatchObject({ contacts: 40, final: 40 });
    expect(totals.unknown).toBeUndefined();

    const summary = JSON.parse(JSON.stringify(summarize(info, totals, 2, "final", Date.now())));
    expect(Object.entries(summary.callsByStatus).sort()).toEqual(expected);
    const lines = summaryLines(summary, ["constructor"]).join("\n");
    expect(lines).toContain(`Reached ${said.get("constructor")} of 40 contacts`);
    expect(lines).not.toContain("native code");

    const jobs = tempDir("vcw-names-jobs-");
    writeFileSync(
      join(jobs, "j.yaml"),
      `name: j\ninbox: ${join(jobs, "inbox")}\nsegment: { id: ${segment} }\npolling: { statuses: { final: [${FINAL.join(", ")}], reached: [constructor], optedOut: [valueof] } }\n`,
    );
    const loaded = await loadJobs(jobs);
    expect(loaded.problems).toEqual([]);
    const now = Date.now();
    const period = {
      from: new Date(now - 86_400_000).toISOString(),
      to: new Date(now + 60_000).toISOString(),
      timezone: "UTC",
      label: "day",
    };
    const report = await gatherReport([loaded.jobs[0]!.job], period, { store }, now);
    expect(Object.entries(report.totals.byStatus).sort()).toEqual(expected);
    expect(report.totals).toMatchObject({
      calls: 40,
      reached: said.get("constructor"),
      optedOut: said.get("valueof"),
    });
    expect(reportText(report)).toContain(`__proto__ ${said.get("__proto__")}`);
  });
});
