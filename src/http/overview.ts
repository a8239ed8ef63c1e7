import { readdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import type { Job } from "bullmq";
import type { JobDefinition } from "../config/job-definition.ts";
import { dropFolder, isCandidate } from "../inbox/drop-folder.ts";
import type { RedisClient } from "../lib/redis.ts";
import type { RedisKeys } from "../lib/redis-keys.ts";
import { type CampaignStop, createStopStore } from "../pipeline/campaign/stop-store.ts";
import { type PreflightRecord, readPreflights } from "../pipeline/resources/preflight.ts";
import type { CampaignStore, StoredCampaign } from "../pipeline/results/campaign-store.ts";
import type { CampaignInfo, Payload } from "../pipeline/results/model.ts";
import type { DeliveryJobData, ImportJobData, QueueKind, Queues } from "../queue/queues.ts";
import { zoneOf } from "./campaign-rows.ts";
import { reportUrl } from "./report-file.ts";

/**
 * What the operator's surface shows, read from Redis, BullMQ and the job folders: the one read
 * model of the dashboard and the gauges of /metrics. Phones are in it as stored; `present()`
 * masks them for the page.
 */
export interface Overview {
  generatedAt: string;
  /** False when Redis did not answer: the rest is the last good read (`readAt`), or empty. */
  redis: { ok: boolean; error?: string; readAt?: string };
  /** The request rate shared by all workers (req/s), once the limiter has one. */
  rate: number | null;
  queues: QueueView[];
  jobs: JobView[];
  inFlight: FileInFlight[];
  recentFiles: RecentFile[];
  campaigns: CampaignView[];
  /** Every kept campaign, by job and state (the dashboard lists only the latest). */
  campaignCounts: { job: string; state: CampaignInfo["state"]; count: number }[];
  failedDeliveries: FailedDelivery[];
  /** Deliveries whose last attempt failed and that wait for their next: trouble, although not failed yet. */
  retryingDeliveries: RetryingDelivery[];
  /** Campaigns asked for and not yet created: these can still be canceled. */
  pendingCampaigns: PendingCampaign[];
  /** Each job's last test call (`preflight`), numbers masked. */
  preflights: PreflightRecord[];
}

export interface PendingCampaign {
  id: string | undefined;
  job: string;
  file: string;
  name: string;
  /** Not created before this time (follow-up spacing), ISO; null: as soon as a worker takes it. */
  notBefore: string | null;
}

export interface QueueView {
  name: QueueKind;
  paused: boolean;
  counts: Record<string, number>;
}

export interface JobView {
  name: string;
  description?: string | undefined;
  inbox: string;
  /** This process watches the inbox (`vcw start`). */
  watched: boolean;
  /** Paused jobs take no new file; set by the pause command once there is one. */
  paused: boolean;
  waiting: number;
  processing: number;
  /** The job's last poll tick as the scheduler recorded it: behind when polls wait or campaigns are overdue. */
  polls?: { at: string; due: number; lagSeconds: number; behind: boolean } | undefined;
}

export interface FileInFlight {
  id: string | undefined;
  job: string;
  file: string;
  state: string;
  attempts: number;
  rowsRead: number | null;
  created: number | null;
  known: number | null;
}

export interface RecentFile {
  /** The import's job id: a rejected file is re-run by it. */
  id: string | undefined;
  job: string;
  file: string;
  outcome: "imported" | "rejected";
  finishedAt: string | null;
  rows: { total: number; valid: number; rejected: number; duplicates: number; skipped: number } | null;
  created: number | null;
  known: number | null;
  reason: string | null;
  /** Link to the error report (or, for a rejected file, its summary), when it is there. */
  report: string | null;
}

export interface CampaignView {
  id: string;
  name: string;
  job: string;
  file: string;
  state: CampaignInfo["state"];
  attempt: number;
  /** When its calls may start (ISO), and the zone its window is read in. */
  scheduledAt: string;
  zone: string;
  createdAt: number;
  endedAt: number;
  contacts: number;
  final: number;
  byStatus: Record<string, number>;
  meetings: number;
  transfers: number;
  /** The latest status changes (phones as stored: masked by `present`). */
  recent: { phone: string; from: string; to: string; at: number }[];
  /** What vcw did to stop it (issue 20): a window close, opt-outs, `vcw stop`; ran past its window. */
  stop?: Pick<
    CampaignStop,
    "reasons" | "withdrawn" | "flagged" | "honoured" | "ranPastWindow" | "calledAfter"
  >;
}

export interface FailedDelivery {
  id: string | undefined;
  sink: string;
  kind: Payload["kind"];
  campaign: string | null;
  attempts: number;
  failedAt: string | null;
  reason: string;
}

export interface RetryingDelivery extends Omit<FailedDelivery, "failedAt"> {
  /** About when the next attempt is due (the last attempt's start plus its backoff). */
  nextAttemptAt: string | null;
}

export interface OverviewSources {
  redis: RedisClient;
  keys: RedisKeys;
  queues: Queues;
  store: CampaignStore;
  jobs: () => ReadonlyMap<string, JobDefinition>;
  /** Jobs whose inbox this process watches. */
  watched: () => ReadonlySet<string>;
}

const LISTED = { inFlight: 20, recentFiles: 15, campaigns: 12, failedDeliveries: 10, pendingCampaigns: 20 };
const COUNTED_STATES = [
  "waiting",
  "active",
  "delayed",
  "prioritized",
  "waiting-children",
  "completed",
  "failed",
] as const;

/** Reads the whole overview once. Throws when Redis is not connected (the caller keeps the last one). */
export async function readOverview(src: OverviewSources): Promise<Overview> {
  if (src.redis.status !== "ready") throw new Error(`Redis is ${src.redis.status}`);
  const defs = [...src.jobs().values()];
  const queues = await Promise.all(
    (Object.entries(src.queues) as [QueueKind, Queues[QueueKind]][]).map(async ([name, q]) => ({
      name,
      paused: await q.isPaused(),
      counts: await q.getJobCounts(...COUNTED_STATES),
    })),
  );
  const rate = await src.redis.hget(src.keys.limiter, "rate");
  const campaigns = await readCampaigns(src, defs);
  return {
    generatedAt: new Date().toISOString(),
    redis: { ok: true, readAt: new Date().toISOString() },
    rate: rate === null ? null : Number(rate),
    queues,
    jobs: await Promise.all(
      defs.map(async (def) => ({
        ...(await jobView(def, src.watched(), (await src.redis.sismember(src.keys.paused, def.name)) === 1)),
        polls: pollsOf(await src.redis.get(src.keys.pollLagOf(def.name))),
      })),
    ),
    inFlight: await filesInFlight(src.queues),
    recentFiles: await recentFiles(src.queues, src.jobs()),
    ...campaigns,
    failedDeliveries: await failedDeliveries(src.queues),
    retryingDeliveries: await retryingDeliveries(src.queues),
    pendingCampaigns: await pendingCampaigns(src.queues),
    preflights: await readPreflights(src.redis, src.keys),
  };
}

/** The scheduler's record of a job's last poll tick (campaign-store.ts `PollLag`), if recent. */
function pollsOf(raw: string | null): JobView["polls"] {
  if (!raw) return undefined;
  const lag = JSON.parse(raw) as { at: number; due: number; lagMs: number; behind: boolean };
  return {
    at: new Date(lag.at).toISOString(),
    due: lag.due,
    lagSeconds: lag.lagMs / 1000,
    behind: lag.behind,
  };
}

async function pendingCampaigns(queues: Queues): Promise<PendingCampaign[]> {
  const jobs = await queues.campaigns.getJobs(
    ["waiting", "delayed", "prioritized"],
    0,
    LISTED.pendingCampaigns - 1,
  );
  return jobs.filter(Boolean).map((j) => ({
    id: j.id,
    job: j.data.job,
    file: j.data.original,
    name: j.data.name,
    notBefore: j.data.notBefore ? new Date(j.data.notBefore).toISOString() : null,
  }));
}

async function jobView(def: JobDefinition, watched: ReadonlySet<string>, paused: boolean): Promise<JobView> {
  const f = dropFolder(def.inbox);
  const count = async (dir: string) =>
    (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter(
      (e) => e.isFile() && isCandidate(e.name),
    ).length;
  return {
    name: def.name,
    description: def.description,
    inbox: def.inbox,
    watched: watched.has(def.name),
    paused,
    waiting: await count(f.inbox),
    processing: await count(f.processing),
  };
}

async function filesInFlight(queues: Queues): Promise<FileInFlight[]> {
  const jobs = await queues.imports.getJobs(["active", "waiting", "delayed"], 0, LISTED.inFlight - 1);
  return Promise.all(
    jobs.filter(Boolean).map(async (j: Job<ImportJobData>) => {
      const p = (typeof j.progress === "object" ? j.progress : {}) as Record<string, unknown>;
      const n = (v: unknown) => (typeof v === "number" ? v : null);
      return {
        id: j.id,
        job: j.data.job,
        file: j.data.original,
        state: await j.getState(),
        attempts: j.attemptsStarted,
        rowsRead: n(p.rowsRead),
        created: n(p.created),
        known: n(p.known),
      };
    }),
  );
}

/** The latest finished imports, from BullMQ (every process sees the same), newest first. */
async function recentFiles(queues: Queues, defs: ReadonlyMap<string, JobDefinition>): Promise<RecentFile[]> {
  const n = LISTED.recentFiles;
  const done = await queues.imports.getJobs(["completed"], 0, n - 1);
  const failed = await queues.imports.getJobs(["failed"], 0, n - 1);
  const all = [
    ...done.filter(Boolean).map((j) => ({ j, imported: true })),
    ...failed.filter(Boolean).map((j) => ({ j, imported: false })),
  ]
    .sort((a, b) => (b.j.finishedOn ?? 0) - (a.j.finishedOn ?? 0))
    .slice(0, n);
  return Promise.all(
    all.map(async ({ j, imported }): Promise<RecentFile> => {
      const s = (j.returnvalue ?? {}) as {
        totals?: RecentFile["rows"];
        created?: number;
        known?: number;
        errorsFile?: string;
      };
      const def = defs.get(j.data.job);
      const folder = imported ? "done" : "rejected";
      // The error report when there is one, else the summary (a rejected file's says why).
      const name = s.errorsFile ? basename(s.errorsFile) : `${j.data.file}.summary.json`;
      const there = def ? await isFile(join(dropFolder(def.inbox)[folder], name)) : false;
      return {
        id: j.id,
        job: j.data.job,
        file: j.data.original,
        outcome: imported ? "imported" : "rejected",
        finishedAt: j.finishedOn ? new Date(j.finishedOn).toISOString() : null,
        rows: s.totals
          ? {
              total: s.totals.total,
              valid: s.totals.valid,
              rejected: s.totals.rejected,
              duplicates: s.totals.duplicates,
              skipped: s.totals.skipped,
            }
          : null,
        created: s.created ?? null,
        known: s.known ?? null,
        reason: imported ? null : j.failedReason,
        report: there ? reportUrl(j.data.job, folder, name) : null,
      };
    }),
  );
}

const isFile = (path: string) =>
  stat(path).then(
    (s) => s.isFile(),
    () => false,
  );

/** Every kept campaign's meta (for the counts), the latest listed with their last status changes. */
async function readCampaigns(
  src: OverviewSources,
  defs: JobDefinition[],
): Promise<Pick<Overview, "campaigns" | "campaignCounts">> {
  const stored: StoredCampaign[] = [];
  for (const def of defs) {
    const ids = await src.redis.smembers(src.keys.campaignsOf(def.name));
    for (let i = 0; i < ids.length; i += 32) {
      const part = await Promise.all(ids.slice(i, i + 32).map((id) => src.store.get(id)));
      for (const c of part) if (c) stored.push(c);
    }
  }
  const counts = new Map<string, { job: string; state: CampaignInfo["state"]; count: number }>();
  for (const c of stored) {
    const key = `${c.info.job}\n${c.info.state}`;
    const entry = counts.get(key) ?? { job: c.info.job, state: c.info.state, count: 0 };
    entry.count += 1;
    counts.set(key, entry);
  }
  // Running ones first, then the latest to end.
  const order = (c: StoredCampaign) => (c.info.state === "active" ? 1e15 + c.createdAt : c.endedAt);
  const latest = stored.sort((a, b) => order(b) - order(a)).slice(0, LISTED.campaigns);
  const campaigns = await Promise.all(
    latest.map(async (c): Promise<CampaignView> => {
      const recent = await src.store.recentTransitions(c.info.id, 2);
      const stop = await createStopStore(src.redis, src.keys).get(c.info.id);
      return {
        id: c.info.id,
        name: c.info.name,
        job: c.info.job,
        file: c.info.file,
        state: c.info.state,
        attempt: c.info.attempt,
        scheduledAt: c.info.scheduledAt,
        zone: zoneOf(c.info, src.jobs().get(c.info.job)),
        createdAt: c.createdAt,
        endedAt: c.endedAt,
        contacts: c.totals.contacts,
        final: c.totals.final,
        byStatus: c.totals.byStatus,
        meetings: c.totals.meetings,
        transfers: c.totals.transfers,
        recent: recent.slice(0, 6),
        ...(stop ? { stop: stopView(stop) } : {}),
      };
    }),
  );
  return { campaigns, campaignCounts: [...counts.values()] };
}

const stopView = (s: CampaignStop): NonNullable<CampaignView["stop"]> => ({
  reasons: s.reasons,
  withdrawn: s.withdrawn,
  flagged: s.flagged,
  honoured: s.honoured,
  ranPastWindow: s.ranPastWindow,
  calledAfter: s.calledAfter,
});

async function failedDeliveries(queues: Queues): Promise<FailedDelivery[]> {
  const jobs = await queues.deliveries.getJobs(["failed"], 0, LISTED.failedDeliveries - 1);
  return jobs.filter(Boolean).map((j: Job<DeliveryJobData>) => ({
    ...deliveryOf(j),
    failedAt: j.finishedOn ? new Date(j.finishedOn).toISOString() : null,
  }));
}

/** Delayed deliveries that have failed an attempt (a delivery enqueued with a delay has not). */
async function retryingDeliveries(queues: Queues): Promise<RetryingDelivery[]> {
  const jobs = await queues.deliveries.getJobs(["delayed"], 0, 4 * LISTED.failedDeliveries - 1);
  return jobs
    .filter((j): j is Job<DeliveryJobData> => Boolean(j) && j.attemptsMade > 0)
    .slice(0, LISTED.failedDeliveries)
    .map((j) => ({
      ...deliveryOf(j),
      nextAttemptAt: j.delay > 0 ? new Date((j.processedOn ?? j.timestamp) + j.delay).toISOString() : null,
    }));
}

/** What the overview shows of any delivery job. */
function deliveryOf(j: Job<DeliveryJobData>) {
  const p = j.data.payload;
  return {
    id: j.id,
    sink: j.data.sink,
    kind: p.kind,
    campaign: "campaign" in p ? p.campaign.name : null,
    attempts: j.attemptsMade,
    reason: j.failedReason ?? "",
  };
}
