import { randomBytes } from "node:crypto";
import { setMaxListeners } from "node:events";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { DelayedError, type Job, UnrecoverableError } from "bullmq";
import { dropFolder, settleFile, sha256File } from "../inbox/drop-folder.ts";
import { waitUntilStable } from "../inbox/stable-file.ts";
import { IngestFileError } from "../ingest/ingest-file-error.ts";
import { validateFile } from "../ingest/validate-file.ts";
import { fileExists } from "../lib/file-exists.ts";
import { type AudienceReport, audiencesOf } from "../pipeline/campaign/audience.ts";
import { abortWhenPaused } from "../pipeline/campaign/controls.ts";
import { isPermanent } from "../pipeline/errors.ts";
import type { ImportCheckpoint } from "../pipeline/import/import-file.ts";
import {
  contactsIn,
  fileIdentity,
  type ImportedFile,
  importSpecOf,
} from "../pipeline/import/import-use-case.ts";
import { applyIntents } from "./intents.ts";
import type { ImportProgress, ImportSummary } from "./job-results.ts";
import type { ImportJobData } from "./queues.ts";
import { jobOf, type WorkDeps } from "./work-deps.ts";

export type { ImportProgress, ImportSummary } from "./job-results.ts";

/** Rounds of "the file changed: import its new rows" before it is settled with a warning. */
const MAX_CHANGES = 50;

/**
 * The BullMQ processor of import jobs: one file into its job's segment, then its campaign, then
 * the file into done/. A file is rejected only before its contacts went in; after that, a failure
 * (settling on a full disk) is retried by BullMQ and then by the inbox's rescan, until it settles.
 */
export function createImportProcessor(d: WorkDeps) {
  return async function processImport(job: Job<ImportJobData>, token?: string): Promise<ImportSummary> {
    const { data } = job;
    const log = d.logger.child({ job: data.job, file: data.original, jobId: job.id });
    const def = jobOf(d, data.job);
    const folder = dropFolder(def.inbox);
    const path = join(folder.processing, data.file);
    const base = { job: data.job, file: data.file, original: data.original, sha256: data.sha256 };
    const gen = data.gen ?? 1;
    const creator = fileIdentity(data.job, data.sha256, gen);
    // The campaigns are asked for before the file is settled: a crash in between asks again (same
    // segments, ledger, reservations and job ids), so nothing is made twice.
    const next = async (imported: ImportSummary, at: string): Promise<AudienceReport> => {
      const { requests, report } = await audiencesOf(
        def,
        {
          job: data.job,
          sha256: data.sha256,
          gen,
          original: data.original,
          path: at,
          admittedAt: job.timestamp,
          creator,
          segmentId: imported.segment?.id ?? "",
          contacts: imported.segment ? contactsIn(counts(imported)) : 0,
        },
        d,
        d.now(),
      );
      await applyIntents(
        requests.map((request) => ({ kind: "create-campaign" as const, request })),
        d,
      );
      return report;
    };

    if (!(await fileExists(path))) {
      // Finished by an attempt that died before it could report: its summary is in done/.
      const previous = await readFile(join(folder.done, `${data.file}.summary.json`), "utf8").catch(() => "");
      if (previous) {
        const summary = JSON.parse(previous) as ImportSummary;
        await next(summary, join(folder.done, data.file));
        await d.registry.settle(data.job, data.sha256, "done");
        return summary;
      }
      throw new UnrecoverableError(`the file ${data.file} is no longer in ${folder.processing}`);
    }

    // Paused: the file is validated (once), nothing is sent, and the job looks again later.
    const waitWhilePaused = async (): Promise<never> => {
      if ((job.progress as Partial<ImportProgress>)?.phase !== "paused") {
        const validated = await validateFile(path, importSpecOf(def).ingest, {
          errorsPath: `${path}.errors.csv`,
        }).catch(() => undefined);
        await job.updateProgress({
          ...(asCheckpoint(job.progress) ?? {}),
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
        });
        log.info("job paused: the file is validated and waits; nothing is sent");
      }
      if (!token) throw new Error(`job ${data.job} is paused`);
      await job.moveToDelayed(Date.now() + (d.pausedRetryMs ?? 5_000), token);
      throw new DelayedError();
    };
    if (await d.controls.isPaused(data.job)) await waitWhilePaused();

    let segmentId: string | undefined;
    const pause = abortWhenPaused(d.controls, data.job);
    const signal = AbortSignal.any([d.stopping, pause.signal]);
    // Every request in flight (and every wait for the shared limit) listens to it.
    setMaxListeners(0, signal);
    const importOnce = () => {
      const resume = asCheckpoint(job.progress);
      log.info(resume ? { cursor: resume.cursor } : {}, resume ? "resuming import" : "import started");
      return d.imports.run({
        spec: importSpecOf(def),
        path,
        sha256: data.sha256,
        original: data.original,
        admittedAt: job.timestamp,
        owner: `${job.id}#${job.attemptsStarted}-${randomBytes(4).toString("hex")}`,
        creator,
        errorsPath: `${path}.errors.csv`,
        resume,
        checkpoint: (at, id) => {
          segmentId = id;
          return job.updateProgress({ ...at, phase: "importing", segmentId: id } satisfies ImportProgress);
        },
        signal,
        ...(d.checkpointMs === undefined ? {} : { checkpointMs: d.checkpointMs }),
        ...(d.waitPollMs === undefined ? {} : { waitPollMs: d.waitPollMs }),
      });
    };

    let imported: ImportedFile;
    let content = data.sha256;
    let changes = 0;
    try {
      imported = await importOnce();
      // A writer may still hold the file open: the summary must describe the file it sits beside.
      for (
        let now = await sha256File(path);
        now !== content && changes < MAX_CHANGES;
        now = await sha256File(path)
      ) {
        changes += 1;
        log.warn(
          { round: changes },
          "the file changed while it was imported: importing it again (new rows only)",
        );
        await waitUntilStable(path, d.stableMs, d.stopping);
        content = await sha256File(path);
        imported = await importOnce();
      }
    } catch (error) {
      pause.stop();
      if (pause.signal.aborted && !d.stopping.aborted) await waitWhilePaused();
      if (d.stopping.aborted && token) {
        // Stopping: the checkpoint is saved; the job waits for the next worker, not counted as failed.
        log.info("import paused: the daemon is stopping");
        await job.moveToDelayed(Date.now(), token);
        throw new DelayedError();
      }
      const final =
        error instanceof IngestFileError ||
        error instanceof UnrecoverableError ||
        isPermanent(error) ||
        job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      const reason = error instanceof Error ? error.message : String(error);
      if (!final) {
        log.warn({ err: reason, attempt: job.attemptsMade + 1 }, "import attempt failed; it will be retried");
        throw error;
      }
      const summary: ImportSummary = {
        status: "rejected",
        ...base,
        ...(segmentId ? { segment: { id: segmentId } } : {}),
        reason,
        attempts: job.attemptsStarted,
        finishedAt: new Date().toISOString(),
      };
      await settleFile(folder, data.file, "rejected", summary);
      await d.registry.settle(data.job, data.sha256, "rejected");
      log.error({ err: reason }, "file rejected");
      throw error instanceof UnrecoverableError ? error : new UnrecoverableError(reason);
    }

    pause.stop();
    // Imported: from here on a failure is retried (the ledger makes a rerun send nothing); the file is
    // never "rejected" after its contacts went in.
    if (content !== data.sha256) await d.registry.markDone(data.job, content, data.file);
    const summary: ImportSummary = {
      status: "imported",
      ...base,
      sha256: content,
      ...imported,
      errorsFile: imported.errorsFile && join(folder.done, `${data.file}.errors.csv`),
      ...(changes > 0 ? { changedWhileImporting: changes } : {}),
      ...(changes >= MAX_CHANGES
        ? { warning: "the file kept changing while it was imported: write it elsewhere and move it in whole" }
        : {}),
      attempts: job.attemptsStarted,
      finishedAt: new Date().toISOString(),
    };
    summary.audience = await next(summary, path);
    try {
      await settleFile(folder, data.file, "done", summary, imported.errorsFile);
    } catch (error) {
      log.error(
        { err: String(error) },
        "imported, but the file could not be moved to done/: settling is retried (the contacts are in)",
      );
      throw error;
    }
    await d.registry.settle(data.job, data.sha256, "done");
    log.info(
      {
        created: imported.created,
        known: imported.known,
        rejected: imported.totals.rejected,
        failed: imported.failed,
      },
      "import done",
    );
    return summary;
  };
}

const counts = (s: ImportSummary) => ({
  created: s.created ?? 0,
  known: s.known ?? 0,
  elsewhere: s.elsewhere ?? 0,
});

function asCheckpoint(progress: unknown): ImportCheckpoint | undefined {
  if (typeof progress !== "object" || progress === null) return undefined;
  const p = progress as Partial<ImportCheckpoint>;
  return typeof p.cursor === "number" ? (p as ImportCheckpoint) : undefined;
}
