import { emptyTotals } from "../../src/pipeline/model/campaign-totals.ts";
import type { CampaignInfo, ResultRecord } from "../../src/pipeline/model/results.ts";
import { campaignInfo, resultRecord } from "./fixtures.ts";

/** The store as the seed uses it: its own or a base tree's (the guardrail bench). */
interface SeedStore {
  register(info: CampaignInfo, now: number): Promise<void>;
  commit(id: string, job: string, c: object, info: CampaignInfo): Promise<void>;
}

/** A job with variants a and b, a guardrail and the service's statuses, as `JobDefinition` reads it. */
export const experimentJob = (name: string) => ({
  name,
  inbox: "/nonexistent/inbox",
  segment: { name: "s" },
  campaign: {
    variants: [
      { name: "a", assistant: { name: "A" }, share: 1 },
      { name: "b", assistant: { name: "B" }, share: 1 },
    ],
    dialer: { id: "d" },
    start: "asap",
    experiment: { metric: "reached", guardrail: { stopWorse: true, minContacts: 55 } },
  },
});

const phoneOf = (campaign: number, contact: number) =>
  `+1555${String(campaign * 100 + contact).padStart(7, "0")}`;

/**
 * Campaign `i` of `job` (variant a or b in turn), finished: `contacts` called, every third reached
 * (b a little more often), each ended call a transition and a record. Returns its info.
 */
export async function seedExperimentCampaign(
  store: SeedStore,
  job: string,
  i: number,
  contacts: number,
  at: number,
): Promise<CampaignInfo> {
  const variant = i % 2 === 0 ? "a" : "b";
  const info = campaignInfo({
    id: `c${String(i).padStart(6, "0")}`,
    job,
    variant,
    audience: contacts,
    state: "finished",
    scheduledAt: new Date(at + i).toISOString(),
  });
  await store.register(info, at);
  const records = Array.from({ length: contacts }, (_, j): ResultRecord => {
    const reached = j % 3 === 0 || (variant === "b" && j % 5 === 1);
    return resultRecord(phoneOf(i, j), {
      status: reached ? "completed" : "no-answer",
      durationSec: reached ? 40 + j : 0,
      meeting: reached && j % 2 === 0,
    });
  });
  await commitRecords(store, info, records, 1, at);
  return info;
}

/** A later poll of campaign `info`: contact `j` opted out after its call (a delta of one entry). */
export async function optOutLater(
  store: SeedStore,
  info: CampaignInfo,
  j: number,
  version: number,
  at: number,
) {
  const n = Number(info.id.slice(1));
  await commitRecords(store, info, [resultRecord(phoneOf(n, j), { status: "opted-out" })], version, at);
}

async function commitRecords(
  store: SeedStore,
  info: CampaignInfo,
  records: ResultRecord[],
  version: number,
  at: number,
) {
  await store.commit(
    info.id,
    info.job,
    {
      changes: records.map((record) => ({
        phone: record.phone,
        record,
        fingerprint: `${record.status}${version}`,
      })),
      transitions: records.map((r) => ({ phone: r.phone, from: "queued", to: r.status })),
      totals: emptyTotals(),
      digest: `d${version}`,
      version,
      now: at,
      state: info.state,
    },
    info,
  );
}
