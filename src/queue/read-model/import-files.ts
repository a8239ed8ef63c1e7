import { basename } from "node:path";
import type { Job } from "bullmq";
import type { JobDefinition } from "../../config/job-definition.ts";
import type { InboxStores } from "../../inbox/inbox-store.ts";
import { type ImportProgressRead, importProgressOf, importResultOf } from "../job-results.ts";
import type { ImportJobData, Queues } from "../queues.ts";

/** An import job not finished yet, with its progress as saved. */
export interface ImportInFlight {
  id: string | undefined;
  job: string;
  file: string;
  state: string;
  attempts: number;
  /** The saved progress, or BullMQ's 0 before the first checkpoint. */
  progress: ImportProgressRead | number;
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
  /** Where the error report (or, for a rejected file, its summary) is, when it is there. */
  report: { job: string; folder: "done" | "rejected"; name: string } | null;
  /** The file's content and import generation: its campaigns name them. */
  sha256: string;
  gen: number;
  /** Of its campaigns, those not made (failed or refused), among the latest listed. */
  campaignsNotMade: number;
}

/** A failed import as `vcw status` lists it. */
export interface FailedImport {
  id: string | undefined;
  job: string;
  file: string;
  reason: string;
}

/** Up to `n` imports waiting, delayed or running, with their progress. */
export async function importsInFlight(queues: Queues, n: number): Promise<ImportInFlight[]> {
  const jobs = await queues.imports.getJobs(["active", "waiting", "delayed"], 0, n - 1);
  return Promise.all(
    jobs.filter(Boolean).map(async (j: Job<ImportJobData>) => ({
      id: j.id,
      job: j.data.job,
      file: j.data.original,
      state: await j.getState(),
      attempts: j.attemptsStarted,
      progress: importProgressOf(j) ?? (typeof j.progress === "number" ? j.progress : 0),
    })),
  );
}

/** The dashboard's view of the imports in flight: the figures of their progress. */
export async function filesInFlight(queues: Queues, n: number): Promise<FileInFlight[]> {
  return (await importsInFlight(queues, n)).map(({ progress, ...f }) => {
    const p = typeof progress === "object" ? progress : {};
    return { ...f, rowsRead: p.rowsRead ?? null, created: p.created ?? null, known: p.known ?? null };
  });
}

/** The latest failed imports. */
export async function failedImports(queues: Queues, n: number): Promise<FailedImport[]> {
  const failed = await queues.imports.getJobs(["failed"], 0, n);
  return failed.map((j) => ({ id: j.id, job: j.data.job, file: j.data.original, reason: j.failedReason }));
}

/** The latest finished imports, from BullMQ (every process sees the same), newest first. */
export async function recentFiles(
  queues: Queues,
  defs: ReadonlyMap<string, JobDefinition>,
  inboxes: InboxStores,
  n: number,
): Promise<RecentFile[]> {
  const done = await queues.imports.getJobs(["completed"], 0, n - 1);
  const failed = await queues.imports.getJobs(["failed"], 0, n - 1);
  const all = [
    ...done.filter(Boolean).map((j) => ({ j, imported: true })),
    ...failed.filter(Boolean).map((j) => ({ j, imported: false })),
  ]
    .sort((a, b) => (b.j.finishedOn ?? 0) - (a.j.finishedOn ?? 0))
    .slice(0, n);
  return Promise.all(all.map(({ j, imported }) => recentFile(j, imported, defs.get(j.data.job), inboxes)));
}

async function recentFile(
  j: Job<ImportJobData>,
  imported: boolean,
  def: JobDefinition | undefined,
  inboxes: InboxStores,
) {
  const s = importResultOf(j) ?? {};
  const folder = imported ? "done" : "rejected";
  // The error report when there is one, else the summary (a rejected file's says why).
  const name = s.errorsFile ? basename(s.errorsFile) : `${j.data.file}.summary.json`;
  const there = def
    ? await inboxes(def.inbox)
        .exists(folder, name)
        .catch(() => false)
    : false;
  const t = s.totals;
  return {
    id: j.id,
    job: j.data.job,
    file: j.data.original,
    outcome: imported ? "imported" : "rejected",
    finishedAt: j.finishedOn ? new Date(j.finishedOn).toISOString() : null,
    rows: t
      ? { total: t.total, valid: t.valid, rejected: t.rejected, duplicates: t.duplicates, skipped: t.skipped }
      : null,
    created: s.created ?? null,
    known: s.known ?? null,
    reason: imported ? null : j.failedReason,
    report: there ? { job: j.data.job, folder, name } : null,
    sha256: j.data.sha256,
    gen: j.data.gen,
    campaignsNotMade: 0,
  } satisfies RecentFile;
}
