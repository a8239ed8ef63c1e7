import { describe, expect, it } from "vitest";
import { JobDefinition } from "../../../src/config/job-definition.ts";
import { audiencesOf } from "../../../src/pipeline/campaign/audience.ts";
import { createAuditLog } from "../../../src/pipeline/stores/audit-log.ts";
import { createCallFrequency } from "../../../src/pipeline/stores/call-frequency.ts";
import { createCallHistory } from "../../../src/pipeline/stores/call-history.ts";
import { createCampaignStore } from "../../../src/pipeline/stores/campaign-store.ts";
import { createContactLedger } from "../../../src/pipeline/stores/contact-ledger.ts";
import { createCreateMemo } from "../../../src/pipeline/stores/create-memo.ts";
import { createDialerBudgets } from "../../../src/pipeline/stores/dialer-budget.ts";
import { loadDoNotCallList } from "../../../src/pipeline/stores/dnc/load-list.ts";
import { createExperimentStore } from "../../../src/pipeline/stores/experiment-store.ts";
import { createFileRowsStore } from "../../../src/pipeline/stores/file-rows.ts";
import { createNumberRests } from "../../../src/pipeline/stores/number-rests.ts";
import { createPaceStore } from "../../../src/pipeline/stores/pace-store.ts";
import { createPlanStore } from "../../../src/pipeline/stores/plan-store.ts";
import { createResourceState } from "../../../src/pipeline/stores/resource-state.ts";
import { createSuppressionList } from "../../../src/pipeline/stores/suppression.ts";
import { contactsCsv, phoneOf } from "../../support/daemon.ts";
import { tempDir, writeFixture } from "../../support/files.ts";
import { useRedis } from "../../support/redis.ts";
import { useSimulator } from "../../support/simulator.ts";

/** Right before a file's campaigns are made: a number listed since its import is left out. */
describe("a file's audience and the do-not-call lists", () => {
  const t = useSimulator();
  const { redis, keys: freshKeys } = useRedis();

  it("leaves out a number put on a do-not-call list after the import, and counts it", async () => {
    const keys = freshKeys();
    const ledger = createContactLedger(redis, { keys, leaseMs: 30_000 });
    const segment = (await t.client.segments.create({ name: `job-${keys.prefix}` })).id!;
    const path = writeFixture(tempDir("vcw-aud-dnc-"), "f.csv", contactsCsv(4, { from: 600 }));
    const creator = "j:sha:0";
    const phones = [0, 1, 2, 3].map((i) => phoneOf(600 + i));
    await ledger.markDone(segment, phones, creator); // what the file's import recorded
    async function* listed() {
      yield { line: 1, phone: phoneOf(601) };
    }
    await loadDoNotCallList(redis, keys, listed(), {
      source: "ftc",
      file: "ftc.txt",
      expiresInMs: undefined,
    });
    const audit = createAuditLog(redis, keys);
    const def = JobDefinition.parse({
      name: "j",
      inbox: "inbox/j",
      segment: { id: segment },
      contacts: { country: "US" },
      campaign: { assistant: { id: "ast_1" }, dialer: { id: "dlr_1" } },
    });
    const { requests, report } = await audiencesOf(
      def,
      {
        job: "j",
        sha256: "sha",
        gen: 0,
        original: "f.csv",
        path,
        admittedAt: Date.now(),
        creator,
        segmentId: segment,
        contacts: 4,
      },
      {
        client: t.client,
        memo: createCreateMemo(redis, keys),
        leaseMs: 30_000,
        ledger,
        suppression: createSuppressionList(redis, keys),
        history: createCallHistory(redis, keys, { keepMs: 86_400_000 }),
        frequency: createCallFrequency(redis, keys, { keepMs: 86_400_000 }),
        pace: createPaceStore(redis, keys),
        fileRows: createFileRowsStore(redis, keys),
        plans: createPlanStore(redis, keys),
        budgets: createDialerBudgets(redis, keys),
        resources: createResourceState(redis, keys),
        rests: createNumberRests(redis, keys),
        store: createCampaignStore(redis, keys),
        experiments: createExperimentStore(redis, keys),
        audit,
      },
      Date.now(),
    );
    expect(report).toMatchObject({ new: 4, optedOut: 1, doNotCall: 1, recentlyCalled: 0 });
    expect(requests).toHaveLength(1);
    const called = (await t.client.contacts.list(requests[0]!.segmentId)).map((c) => c.phone).sort();
    expect(called).toEqual(phones.filter((p) => p !== phoneOf(601)).sort());
    // The refusal is in the audit trail (issue 46), with its file, row and reason.
    const trail = [];
    for await (const e of audit.range(0, Date.now())) trail.push(e);
    expect(trail).toMatchObject([
      { decision: "refused", phone: phoneOf(601), job: "j", file: "f.csv", row: 3, reason: "opted_out" },
    ]);
  });
});
