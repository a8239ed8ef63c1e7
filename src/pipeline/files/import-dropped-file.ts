import { setMaxListeners } from "node:events";
import type { Logger } from "pino";
import type { JobDefinition } from "../../config/job-definition.ts";
import { sha256File } from "../../inbox/drop-folder.ts";
import type { InboxStore, LocalCopy } from "../../inbox/inbox-store.ts";
import { waitUntilStable } from "../../inbox/stable-file.ts";
import { validateFile } from "../../ingest/validate-file.ts";
import { givesUp, JobLockLostError } from "../errors.ts";
import type { ImportCheckpoint } from "../import/import-file.ts";
import {
  fileIdentity,
  type ImportedFile,
  type ImportUseCase,
  importSpecOf,
} from "../import/import-use-case.ts";
import { abortWhenPaused, type Controls } from "../stores/controls.ts";
import type { ImportOutcome, ImportProgress, ImportSummary } from "./import-outcome.ts";
import {
  type DroppedFile,
  rejectedEarlier,
  type SettleDeps,
  settledEarlier,
  settleImported,
  settleRejected,
} from "./settle-import.ts";

/** Rounds of "the file changed: import its new rows" before it is settled with a warning. */
const MAX_CHANGES = 50;

/** What importing a dropped file needs, beside settling it. */
export interface DroppedFileDeps extends SettleDeps {
  imports: Pick<ImportUseCase, "run">;
  controls: Pick<Controls, "isPaused">;
  logger: Logger;
  /** Aborted when the daemon stops: the import checkpoints and goes back to the queue. */
  stopping: AbortSignal;
  /** A file counts as written once its size is stable this long. */
  stableMs: number;
  checkpointMs?: number;
  waitPollMs?: number;
}

/** This attempt at the file, as the queue sees it. */
export interface ImportAttempt {
  /** The job's saved progress: a checkpoint to resume from, or what a pause recorded. */
  progress: unknown;
  saveProgress: (p: ImportProgress) => Promise<void>;
  /** This attempt, in the ledger. */
  owner: string;
  attemptsStarted: number;
  /** No attempt follows this one: a failure rejects the file. */
  last: boolean;
  /** The job can wait in the queue: a stopping daemon hands it back rather than failing it. */
  canWait: boolean;
  /** Aborted when the queue's lock on the job is lost: nothing more may be sent. */
  lockLost?: AbortSignal | undefined;
}

interface Run {
  def: JobDefinition;
  f: DroppedFile;
  inbox: InboxStore;
  /** The file, readable on this machine (a bucket's object downloaded). */
  local: LocalCopy;
  attempt: ImportAttempt;
  log: Logger;
  d: DroppedFileDeps;
  /** The segment the contacts go to, once known: a rejected file's summary names it. */
  segmentId?: string;
}

/**
 * One attempt at a dropped file: its contacts into its job's segment, its campaigns asked for, the
 * file into done/. A file is rejected only before its contacts went in; after that, a failure
 * (settling on a full disk) is retried, by the queue and then by the inbox's rescan, until it settles.
 */
export async function importDroppedFile(
  def: JobDefinition,
  f: DroppedFile,
  attempt: ImportAttempt,
  d: DroppedFileDeps,
): Promise<ImportOutcome> {
  const inbox = d.inboxes(def.inbox);
  const log = d.logger.child({ job: f.job, file: f.original });
  // A move into done/ or rejected/ that an attempt began and could not finish (a bucket's copy made,
  // its delete not): the outcome it had reached stands.
  const summary = await settledEarlier(def, f, inbox, d);
  if (summary) return { kind: "settled-earlier", summary };
  const rejected = await rejectedEarlier(f, inbox, d);
  if (rejected) return { kind: "rejected", summary: rejected, reason: rejected.reason ?? "rejected" };
  const gone = {
    kind: "gone",
    reason: `the file ${f.file} is no longer in ${inbox.whereIs("processing", "")}`,
  } as const;
  if (!(await inbox.exists("processing", f.file))) return gone;
  if ((await d.controls.isPaused(f.job)) && (attempt.progress as Partial<ImportProgress>)?.phase === "paused")
    return { kind: "paused" };
  const local = await inbox.local("processing", f.file);
  if (!local) return gone;
  try {
    return await importLocal({ def, f, inbox, local, attempt, log, d });
  } finally {
    await local.release();
  }
}

async function importLocal(run: Run): Promise<ImportOutcome> {
  const { f, attempt, d } = run;
  if (await d.controls.isPaused(f.job)) return paused(run);
  const pause = abortWhenPaused(d.controls, f.job);
  let imported: Awaited<ReturnType<typeof importUntilStable>>;
  try {
    const signals = [d.stopping, pause.signal, ...(attempt.lockLost ? [attempt.lockLost] : [])];
    imported = await importUntilStable(run, AbortSignal.any(signals));
  } catch (error) {
    return failed(run, error, pause.signal);
  } finally {
    pause.stop();
  }
  return settled(run, imported);
}

/** Imports the file, again (new rows only) each time a writer changed it meanwhile. */
async function importUntilStable(run: Run, signal: AbortSignal) {
  const { d, log } = run;
  const { path } = run.local;
  // Every request in flight (and every wait for the shared limit) listens to it.
  setMaxListeners(0, signal);
  // A downloaded copy was hashed as it was made, and nobody writes to it.
  const contentNow = () =>
    run.local.sha256 === undefined ? sha256File(path) : Promise.resolve(run.local.sha256);
  let content = run.f.sha256;
  let changes = 0;
  let file = await importOnce(run, signal);
  // A writer may still hold the file open: the summary must describe the file it sits beside.
  for (let now = await contentNow(); now !== content && changes < MAX_CHANGES; now = await contentNow()) {
    changes += 1;
    log.warn(
      { round: changes },
      "the file changed while it was imported: importing it again (new rows only)",
    );
    await waitUntilStable(path, d.stableMs, d.stopping);
    content = await contentNow();
    file = await importOnce(run, signal);
  }
  return { file, content, changes };
}

function importOnce(run: Run, signal: AbortSignal): Promise<ImportedFile> {
  const { def, f, attempt, d } = run;
  const { path } = run.local;
  const resume = asCheckpoint(attempt.progress);
  run.log.info(resume ? { cursor: resume.cursor } : {}, resume ? "resuming import" : "import started");
  return d.imports.run({
    spec: importSpecOf(def),
    path,
    sha256: f.sha256,
    original: f.original,
    admittedAt: f.admittedAt,
    owner: attempt.owner,
    creator: fileIdentity(f.job, f.sha256, f.gen),
    errorsPath: `${path}.errors.csv`,
    resume,
    checkpoint: (at, id) => {
      run.segmentId = id;
      attempt.progress = { ...at, phase: "importing", segmentId: id } satisfies ImportProgress;
      return attempt.saveProgress(attempt.progress as ImportProgress);
    },
    signal,
    ...(d.checkpointMs === undefined ? {} : { checkpointMs: d.checkpointMs }),
    ...(d.waitPollMs === undefined ? {} : { waitPollMs: d.waitPollMs }),
  });
}

/** Paused: the file is validated (once), nothing is sent, and the job looks again later. */
async function paused(run: Run): Promise<ImportOutcome> {
  const { attempt } = run;
  const { path } = run.local;
  if ((attempt.progress as Partial<ImportProgress>)?.phase === "paused") return { kind: "paused" };
  const validated = await validateFile(path, importSpecOf(run.def).ingest, {
    errorsPath: `${path}.errors.csv`,
  }).catch(() => undefined);
  await attempt.saveProgress({
    ...(asCheckpoint(attempt.progress) ?? {}),
    phase: "paused",
    ...(validated
      ? {
          validated: {
            total: validated.total,
            valid: validated.valid,
            rejected: validated.rejected,
            duplicates: validated.duplicates,
            skipped: validated.skipped,
          },
        }
      : {}),
  } as ImportProgress);
  run.log.info("job paused: the file is validated and waits; nothing is sent");
  return { kind: "paused" };
}

/** An attempt that failed: paused or stopping meanwhile, retried, or the file rejected. */
async function failed(run: Run, error: unknown, pausedSignal: AbortSignal): Promise<ImportOutcome> {
  const { d, attempt, log, f } = run;
  if (attempt.lockLost?.aborted) {
    log.warn("import stopped: the job's lock was lost (another worker carries it on)");
    return { kind: "retry-later", error: new JobLockLostError(undefined) };
  }
  if (pausedSignal.aborted && !d.stopping.aborted) return paused(run);
  if (d.stopping.aborted && attempt.canWait) {
    log.info("import paused: the daemon is stopping");
    return { kind: "stopping" };
  }
  const reason = error instanceof Error ? error.message : String(error);
  if (!givesUp(error, attempt.last)) {
    log.warn({ err: reason, attempt: attempt.attemptsStarted }, "import attempt failed; it will be retried");
    return { kind: "retry-later", error };
  }
  const summary: ImportSummary = {
    status: "rejected",
    ...base(f),
    ...(run.segmentId ? { segment: { id: run.segmentId } } : {}),
    reason,
    attempts: attempt.attemptsStarted,
    finishedAt: new Date().toISOString(),
  };
  await settleRejected(f, run.inbox, summary, d);
  log.error({ err: reason }, "file rejected");
  return { kind: "rejected", summary, reason };
}

/**
 * Imported: from here on a failure is retried (the ledger makes a rerun send nothing); the file is
 * never "rejected" after its contacts went in.
 */
async function settled(
  run: Run,
  { file, content, changes }: Awaited<ReturnType<typeof importUntilStable>>,
): Promise<ImportOutcome> {
  const { f, inbox, log } = run;
  const summary: ImportSummary = {
    status: "imported",
    ...base(f),
    sha256: content,
    ...file,
    errorsFile: file.errorsFile && inbox.whereIs("done", `${f.file}.errors.csv`),
    ...(changes > 0 ? { changedWhileImporting: changes } : {}),
    ...(changes >= MAX_CHANGES
      ? { warning: "the file kept changing while it was imported: write it elsewhere and move it in whole" }
      : {}),
    attempts: run.attempt.attemptsStarted,
    finishedAt: new Date().toISOString(),
  };
  try {
    if (!(await settleImported(run.def, f, inbox, run.local.path, summary, file.errorsFile, run.d)))
      log.warn("the file was settled meanwhile by the attempt that took this job over: its summary kept");
  } catch (error) {
    log.error(
      { err: String(error) },
      "imported, but its campaigns could not be asked for or the file moved to done/: settling is retried (the contacts are in)",
    );
    return { kind: "retry-later", error };
  }
  log.info(
    { created: file.created, known: file.known, rejected: file.totals.rejected, failed: file.failed },
    "import done",
  );
  return { kind: "imported", summary };
}

const base = (f: DroppedFile) => ({ job: f.job, file: f.file, original: f.original, sha256: f.sha256 });

function asCheckpoint(progress: unknown): ImportCheckpoint | undefined {
  if (typeof progress !== "object" || progress === null) return undefined;
  const p = progress as Partial<ImportCheckpoint>;
  return typeof p.cursor === "number" ? (p as ImportCheckpoint) : undefined;
}
