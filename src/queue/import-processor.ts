import { randomBytes } from "node:crypto";
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { DelayedError, type Job, UnrecoverableError } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { Client } from "../api/client.ts";
import { NotFoundError } from "../api/errors/index.ts";
import { ingestOptionsOf } from "../config/ingest-options.ts";
import type { JobDefinition } from "../config/job-definition.ts";
import { IngestFileError } from "../ingest/ingest-file-error.ts";
import { createContactLedger } from "../pipeline/contact-ledger.ts";
import { dropFolder, settleFile } from "../pipeline/drop-folder.ts";
import type { FileRegistry } from "../pipeline/file-registry.ts";
import { type ImportCheckpoint, type ImportFileResult, importFile } from "../pipeline/import-file.ts";
import { fillPattern } from "../pipeline/name-pattern.ts";
import { forgetSegment, resolveSegment } from "../pipeline/resolve-segment.ts";
import type { ImportJobData } from "./import-queue.ts";

/** What a finished import leaves in `<file>.summary.json` and as the job's return value. */
export interface ImportSummary extends Partial<ImportFileResult> {
  status: "imported" | "rejected";
  job: string;
  file: string;
  original: string;
  sha256: string;
  segment?: { id: string; name?: string | undefined };
  /** Why the file was rejected. */
  reason?: string;
  attempts: number;
  finishedAt: string;
}

/** Progress saved on the BullMQ job: the checkpoint plus what status shows. */
export interface ImportProgress extends ImportCheckpoint {
  phase: "importing" | "paused";
  segmentId: string;
}

export interface ImportProcessorDeps {
  jobs: () => ReadonlyMap<string, JobDefinition>;
  client: Client;
  redis: Redis;
  registry: FileRegistry;
  /** Key prefix of the ledger and segment memo. */
  prefix: string;
  /** Ledger lease: must outlast any request still in flight (timeout × attempts, plus margin). */
  leaseMs: number;
  logger: Logger;
  /** Aborted when the daemon stops: the running import pauses and is resumed later. */
  stopping: AbortSignal;
  checkpointMs?: number;
  waitPollMs?: number;
  /** Phones never to send (the suppression list). */
  suppressed?: (phones: string[]) => Promise<Set<string>>;
  /** After an import, before its file is settled: where the campaign is asked for. Must be idempotent. */
  onImported?: (data: ImportJobData, summary: ImportSummary) => Promise<void>;
}

/** The BullMQ processor of import jobs: one file into its job's segment. */
export function createImportProcessor(d: ImportProcessorDeps) {
  const ledger = createContactLedger(d.redis, { prefix: d.prefix, leaseMs: d.leaseMs });

  return async function processImport(job: Job<ImportJobData>, token?: string): Promise<ImportSummary> {
    const { data } = job;
    const log = d.logger.child({ job: data.job, file: data.original, jobId: job.id });
    const def = d.jobs().get(data.job);
    if (!def) throw new UnrecoverableError(`no job definition named "${data.job}" is loaded`);
    const folder = dropFolder(def.inbox);
    const path = join(folder.processing, data.file);
    const base = {
      job: data.job,
      file: data.file,
      original: data.original,
      sha256: data.sha256,
    };

    if (!(await exists(path))) {
      // Finished by an attempt that died before it could report: its summary is in done/.
      const previous = await readFile(join(folder.done, `${data.file}.summary.json`), "utf8").catch(() => "");
      if (previous) {
        const summary = JSON.parse(previous) as ImportSummary;
        await d.onImported?.(data, summary);
        await d.registry.settle(data.job, data.sha256, "done");
        return summary;
      }
      throw new UnrecoverableError(`the file ${data.file} is no longer in ${folder.processing}`);
    }

    let segmentId: string | undefined;
    // A segment name may be a pattern ({job} {date} {file} {sha}): one segment per file, or per day.
    const target =
      "name" in def.segment
        ? {
            ...def.segment,
            name: fillPattern(def.segment.name, {
              job: data.job,
              file: data.original,
              sha256: data.sha256,
              at: job.timestamp,
            }),
          }
        : def.segment;
    try {
      const id = (await resolveSegment(d.client, d.redis, target, { prefix: d.prefix, lockMs: d.leaseMs }))
        .id;
      segmentId = id;
      const resume = asCheckpoint(job.progress);
      if (resume) log.info({ cursor: resume.cursor }, "resuming import");
      else log.info({ segmentId }, "import started");
      const result = await importFile(path, {
        client: d.client,
        ledger,
        segmentId: id,
        owner: `${job.id}#${job.attemptsStarted}-${randomBytes(4).toString("hex")}`,
        ingest: ingestOptionsOf(def),
        concurrency: def.import.concurrency,
        errorsPath: `${path}.errors.csv`,
        resume,
        checkpoint: (at) =>
          job.updateProgress({ ...at, phase: "importing", segmentId: id } satisfies ImportProgress),
        signal: d.stopping,
        ...(d.checkpointMs === undefined ? {} : { checkpointMs: d.checkpointMs }),
        ...(d.waitPollMs === undefined ? {} : { waitPollMs: d.waitPollMs }),
        ...(d.suppressed ? { suppressed: d.suppressed } : {}),
      });
      const summary: ImportSummary = {
        status: "imported",
        ...base,
        segment: { id, name: "name" in target ? target.name : undefined },
        ...result,
        errorsFile: result.errorsFile && join(folder.done, `${data.file}.errors.csv`),
        attempts: job.attemptsStarted,
        finishedAt: new Date().toISOString(),
      };
      await d.onImported?.(data, summary);
      await settleFile(folder, data.file, "done", summary, result.errorsFile);
      await d.registry.settle(data.job, data.sha256, "done");
      log.info(
        {
          created: result.created,
          known: result.known,
          rejected: result.totals.rejected,
          failed: result.failed,
        },
        "import done",
      );
      return summary;
    } catch (error) {
      if (d.stopping.aborted && token) {
        // Stopping: the checkpoint is saved; the job waits for the next worker, not counted as failed.
        log.info("import paused: the daemon is stopping");
        await job.moveToDelayed(Date.now(), token);
        throw new DelayedError();
      }
      // The service lost the remembered segment (deleted, or a simulator reset): look again next attempt.
      if (error instanceof NotFoundError && segmentId)
        await forgetSegment(d.redis, target, segmentId, d.prefix);
      const final =
        error instanceof IngestFileError ||
        error instanceof UnrecoverableError ||
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
  };
}

function asCheckpoint(progress: unknown): ImportCheckpoint | undefined {
  if (typeof progress !== "object" || progress === null) return undefined;
  const p = progress as Partial<ImportCheckpoint>;
  return typeof p.cursor === "number" ? (p as ImportCheckpoint) : undefined;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );
