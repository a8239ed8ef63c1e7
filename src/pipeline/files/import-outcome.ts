import type { Totals } from "../../ingest/outcome.ts";
import type { AudienceReport } from "../campaign/audience.ts";
import type { ImportCheckpoint } from "../import/import-file.ts";
import type { ImportedFile } from "../import/import-use-case.ts";
import type { StartCheckResult } from "../model/results.ts";

/** What a finished import leaves in `<file>.summary.json` and as the job's return value. */
export interface ImportSummary extends Partial<ImportedFile> {
  status: "imported" | "rejected";
  job: string;
  file: string;
  original: string;
  /** The content imported: the file as it is now, beside its summary. */
  sha256: string;
  /** Times the file changed while it was imported (each time, its new rows were imported too). */
  changedWhileImporting?: number;
  /** Who its campaigns call: its new contacts, less those opted out or called meanwhile, by zone. */
  audience?: AudienceReport;
  /** Its segment as the service listed it after the import: the counts above are read from it (listed-counts.ts). */
  listed?: ListedCounts;
  /** What the checks before its campaigns' starts found and repaired (summary-checks.ts). */
  checksBeforeStart?: ChecksBeforeStart;
  /** Something the operator should know although the file was imported. */
  warning?: string;
  /** Why the file was rejected. */
  reason?: string;
  attempts: number;
  finishedAt: string;
}

/** Progress saved on the BullMQ job: the checkpoint plus what status shows. */
export interface ImportProgress extends ImportCheckpoint {
  phase: "importing" | "paused";
  segmentId: string;
  /** While the job is paused: the file's rows as validated. */
  validated?: Pick<Totals, "total" | "valid" | "rejected" | "duplicates" | "skipped">;
}

/** How one attempt at a dropped file ended; the import processor maps it to the job's fate once. */
export type ImportOutcome =
  /** Imported and settled in done/ (`summary.changedWhileImporting` says if it changed meanwhile). */
  | { kind: "imported"; summary: ImportSummary }
  /** Settled by an earlier attempt that died before it could report: its campaigns asked for again. */
  | { kind: "settled-earlier"; summary: ImportSummary }
  /** Settled in rejected/: no retry can cure it, or this was the last attempt. */
  | { kind: "rejected"; summary: ImportSummary; reason: string }
  /** The file is no longer in processing/ and no summary says why. */
  | { kind: "gone"; reason: string }
  /** The job is paused: the file is validated and waits; nothing is sent. */
  | { kind: "paused" }
  /** The daemon is stopping: the checkpoint is saved, the next worker goes on. */
  | { kind: "stopping" }
  /** A failure a later attempt may cure. */
  | { kind: "retry-later"; error: unknown };

/** A file's contacts as the service lists them after its import, and what the ledger had said. */
export interface ListedCounts {
  /** Contacts and distinct phones the segment listed (the whole segment, not only this file's). */
  contacts: number;
  phones: number;
  /** Extra copies of the file's phones the listing showed, deleted. */
  duplicatesRemoved: number;
  /** Phones the ledger says this file created that the service does not list. */
  notListed: number;
  /** The ledger's counts, replaced in the summary by the listing's. */
  ledger: { created: number; known: number; elsewhere: number };
}

/** The checks before a file's campaigns started, in its summary: totals, and each campaign's. */
export interface ChecksBeforeStart {
  duplicatesRemoved: number;
  campaignsRepaired: number;
  withdrawn: number;
  /** Late copies started before the check, taken on; and calls made twice (both copies started). */
  copiesAdopted?: number;
  /** Of those, the copies found after the check (right before the start, or at a poll). */
  adoptedAfterCheck?: number;
  calledTwice?: number;
  campaigns: (StartCheckResult & { name: string })[];
}
