import {
  AuthenticationError,
  BadRequestError,
  PermissionDeniedError,
  RequestValidationError,
} from "../api/errors/index.ts";
import { IngestFileError } from "../ingest/ingest-file-error.ts";
import { VcwError } from "../lib/vcw-error.ts";

/**
 * A failure no retry can cure: the job fails at once with the reason and what the operator can
 * do, instead of being retried for minutes.
 */
export class PermanentError extends VcwError {
  override name = "PermanentError";
  constructor(
    reason: string,
    /** What the operator can do about it. */
    readonly hint?: string,
  ) {
    super(hint ? `${reason}: ${hint}` : reason);
  }
}

/** Whether retrying `error` is pointless: our own verdict, or the service refusing the request itself. */
export function isPermanent(error: unknown): boolean {
  return (
    error instanceof PermanentError ||
    error instanceof RequestValidationError ||
    error instanceof BadRequestError ||
    error instanceof AuthenticationError ||
    error instanceof PermissionDeniedError
  );
}

/**
 * A create may have been applied (its answer was lost, or an attempt died after sending it) and
 * the service doesn't list the record yet, or couldn't be asked: look it up again later, never
 * send it blind. `sentAt`: when the create was last sent (epoch ms).
 */
export class CreateUnresolvedError extends VcwError {
  override name = "CreateUnresolvedError";
  constructor(
    what: string,
    readonly sentAt: number,
    options?: { cause?: unknown },
  ) {
    super(`${what} may already exist (its create's answer is unknown): it is looked up again`, options);
  }
}

/** The operator canceled a record not yet created, and no create of it was ever applied. */
export class CreateCanceledError extends VcwError {
  override name = "CreateCanceledError";
  constructor(what: string) {
    super(`${what} was canceled before it was created`);
  }
}

/**
 * The retry-or-give-up decision, made once for every queue: give up on the last attempt, or when
 * no retry can cure the failure (a permanent refusal, a file that cannot be read as contacts).
 */
export function givesUp(error: unknown, lastAttempt: boolean): boolean {
  return (
    lastAttempt ||
    isPermanent(error) ||
    error instanceof IngestFileError ||
    // BullMQ's verdict, thrown by a step the queue layer lent us: the name, not the class (no bullmq here).
    (error instanceof Error && error.name === "UnrecoverableError")
  );
}

/**
 * The worker could not renew this job's BullMQ lock (a stall, a pause past the lock, Redis away):
 * another worker may run it now, so its work stopped before anything else was sent. Not an attempt
 * of ours to count: whoever holds the job now decides its fate.
 */
export class JobLockLostError extends VcwError {
  override name = "JobLockLostError";
  constructor(jobId: string | undefined) {
    super(`job ${jobId ?? "?"} lost its lock: its work stopped, another worker carries it on`);
  }
}
