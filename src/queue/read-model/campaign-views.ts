import type { JobDefinition } from "../../config/job-definition.ts";
import { zoneOf } from "../../config/job-zone.ts";
import { DEFAULT_REACHED } from "../../config/service-profile.ts";
import type { CampaignInfo } from "../../pipeline/model/results.ts";
import { campaignReach } from "../../pipeline/reports/reach.ts";
import type { StoredCampaign } from "../../pipeline/stores/campaign-registry.ts";
import type { CampaignResults } from "../../pipeline/stores/campaign-results.ts";
import type { Queues } from "../queues.ts";

export interface CampaignView {
  id: string;
  name: string;
  job: string;
  file: string;
  state: CampaignInfo["state"];
  attempt: number;
  /** When its calls may start (ISO), and the zone its window is read in. */
  scheduledAt: string;
  /** Why it starts then, when vcw held it after its create (CampaignInfo.startReason). */
  startReason?: string;
  zone: string;
  createdAt: number;
  endedAt: number;
  contacts: number;
  final: number;
  byStatus: Record<string, number>;
  meetings: number;
  transfers: number;
  /** Contacts reached, and the sentence every output uses ("2 of 6 contacts (33.3%)": `reach.ts`). */
  reached: number;
  reach: string;
  /** The latest status changes (phones as stored: masked by `present`). */
  recent: { phone: string; from: string; to: string; at: number }[];
  /** What vcw did to stop it (issue 20): a window close, opt-outs, `vcw stop`; ran past its window. */
  stop?: NonNullable<StoredCampaign["stop"]>;
}

export interface CampaignCount {
  job: string;
  state: CampaignInfo["state"];
  count: number;
}

export interface PendingCampaign {
  id: string | undefined;
  job: string;
  file: string;
  name: string;
  /** Not created before this time (follow-up spacing), ISO; null: as soon as a worker takes it. */
  notBefore: string | null;
}

/** Kept campaigns counted by job and state. */
export function campaignCounts(stored: readonly StoredCampaign[]): CampaignCount[] {
  const counts = new Map<string, CampaignCount>();
  for (const c of stored) {
    const key = `${c.info.job}\n${c.info.state}`;
    const entry = counts.get(key) ?? { job: c.info.job, state: c.info.state, count: 0 };
    entry.count += 1;
    counts.set(key, entry);
  }
  return [...counts.values()];
}

/** The `n` campaigns to list, running ones first, then the latest to end, with their last status changes. */
export function latestCampaigns(
  stored: readonly StoredCampaign[],
  o: {
    n: number;
    store: Pick<CampaignResults, "recentTransitions">;
    jobs: ReadonlyMap<string, JobDefinition>;
  },
): Promise<CampaignView[]> {
  const order = (c: StoredCampaign) => (c.info.state === "active" ? 1e15 + c.createdAt : c.endedAt);
  const latest = [...stored].sort((a, b) => order(b) - order(a)).slice(0, o.n);
  return Promise.all(
    latest.map(async (c) => ({
      id: c.info.id,
      name: c.info.name,
      job: c.info.job,
      file: c.info.file,
      state: c.info.state,
      attempt: c.info.attempt,
      scheduledAt: c.info.scheduledAt,
      ...(c.info.startReason ? { startReason: c.info.startReason } : {}),
      zone: zoneOf(o.jobs.get(c.info.job), c.info.zone),
      createdAt: c.createdAt,
      endedAt: c.endedAt,
      contacts: c.totals.contacts,
      final: c.totals.final,
      byStatus: c.totals.byStatus,
      meetings: c.totals.meetings,
      transfers: c.totals.transfers,
      ...campaignReach(
        c.totals.byStatus,
        c.totals.contacts,
        o.jobs.get(c.info.job)?.polling.statuses.reached ?? DEFAULT_REACHED,
      ),
      recent: (await o.store.recentTransitions(c.info.id, 2)).slice(0, 6),
      ...(c.stop ? { stop: c.stop } : {}),
    })),
  );
}

/** Campaigns asked for and not created yet (these can still be canceled), at most `n`. */
export async function pendingCampaigns(
  queues: Queues,
  o: { n: number; states?: ("waiting" | "delayed" | "prioritized")[] },
): Promise<(PendingCampaign & { zone?: string })[]> {
  const jobs = await queues.campaigns.getJobs(o.states ?? ["waiting", "delayed", "prioritized"], 0, o.n - 1);
  return jobs.filter(Boolean).map((j) => ({
    id: j.id,
    job: j.data.job,
    file: j.data.original,
    name: j.data.name,
    notBefore: j.data.notBefore ? new Date(j.data.notBefore).toISOString() : null,
    ...(j.data.zone ? { zone: j.data.zone } : {}),
  }));
}
