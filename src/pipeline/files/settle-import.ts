import type { JobDefinition } from "../../config/job-definition.ts";
import type { FileRegistry } from "../../inbox/file-registry.ts";
import type { InboxStore, InboxStores } from "../../inbox/inbox-store.ts";
import { settleFile } from "../../inbox/settle-file.ts";
import { fileExists } from "../../lib/file-exists.ts";
import { type AudienceDeps, type AudienceReport, audiencesOf } from "../campaign/audience.ts";
import { keptRows } from "../campaign/kept-rows.ts";
import type { Intent } from "../campaign/lifecycle.ts";
import { contactsIn, fileIdentity } from "../import/import-use-case.ts";
import type { FileRowsStore } from "../stores/file-rows.ts";
import type { StartCheckStore } from "../stores/start-check-store.ts";
import type { ImportSummary } from "./import-outcome.ts";
import { countFromListing } from "./listed-counts.ts";

/** What settling a file needs: where it goes, who records it, who asks for its campaigns. */
export interface SettleDeps extends AudienceDeps {
  registry: Pick<FileRegistry, "settle" | "markDone">;
  /** Each job's inbox, a drop folder or a bucket prefix, by its `inbox`. */
  inboxes: InboxStores;
  /** Acts on the lifecycle's intents (the queue layer turns them into jobs, idempotently). */
  request: (intents: Intent[]) => Promise<void>;
  now: () => number;
  /** The rows its import kept: read for its campaigns, dropped once it is settled. */
  fileRows: Pick<FileRowsStore, "read" | "drop">;
  /** The lock of a file summary's checks: settling writes the summary under it too. */
  startChecks: Pick<StartCheckStore, "noting">;
}

/** The dropped file being settled, as its job names it. */
export interface DroppedFile {
  job: string;
  /** Its admitted name in processing/. */
  file: string;
  original: string;
  sha256: string;
  gen: number;
  admittedAt: number;
}

/**
 * Asks for the campaigns of an imported file. They are asked for before the file is settled: a
 * crash in between asks again (same segments, ledger, reservations and job ids), so nothing is made twice.
 */
export async function requestCampaigns(
  def: JobDefinition,
  f: DroppedFile,
  summary: ImportSummary,
  at: string,
  d: SettleDeps,
  rows = keptRows(def, { creator: fileIdentity(f.job, f.sha256, f.gen), path: async () => at }, d.fileRows),
): Promise<AudienceReport> {
  const { requests, report } = await audiencesOf(
    def,
    {
      job: f.job,
      sha256: f.sha256,
      gen: f.gen,
      original: f.original,
      path: at,
      admittedAt: f.admittedAt,
      creator: fileIdentity(f.job, f.sha256, f.gen),
      rows,
      segmentId: summary.segment?.id ?? "",
      contacts: summary.segment ? contactsIn(counts(summary)) : 0,
    },
    d,
    d.now(),
  );
  await d.request(requests.map((request) => ({ kind: "create-campaign" as const, request })));
  return report;
}

/**
 * Imported: its campaigns asked for, then the file into done/ (with `errorsFile`, its rejected rows)
 * and the registry told. `at`: the file, readable here. False when another attempt had settled it.
 */
export async function settleImported(
  def: JobDefinition,
  f: DroppedFile,
  inbox: InboxStore,
  at: string,
  summary: ImportSummary,
  errorsFile: string | undefined,
  d: SettleDeps,
): Promise<boolean> {
  if (summary.sha256 !== f.sha256) await d.registry.markDone(f.job, summary.sha256, f.file);
  const creator = fileIdentity(f.job, f.sha256, f.gen);
  const rows = keptRows(def, { creator, path: async () => at }, d.fileRows);
  await countFromListing(def, summary, { creator, rows }, d);
  summary.audience = await requestCampaigns(def, f, summary, at, d, rows);
  // The calling plan may have written the report of a file whose rows were all good.
  const errors = errorsFile ?? ((await fileExists(`${at}.errors.csv`)) ? `${at}.errors.csv` : undefined);
  if (errors && !summary.errorsFile) summary.errorsFile = inbox.whereIs("done", `${f.file}.errors.csv`);
  // A report counts the file in the period its summary lands in: stamped as it is written, not
  // before the listing and the campaigns (seconds), when a report gathered between missed it for good.
  summary.finishedAt = new Date().toISOString();
  const written = await settleOnce(f, inbox, summary, errors, d);
  await d.registry.settle(f.job, f.sha256, "done");
  await d.fileRows.drop(creator);
  return written;
}

/**
 * The file into done/ with its summary, unless an attempt that took this one's job over settled it
 * already: a worker paused past its job's lock and resumed would otherwise write its summary over
 * the one the checks before the start have written into since. Under the lock of those checks'
 * writes (summary-checks.ts), so no check is noted between the look and the write. True if written here.
 */
export async function settleOnce(
  f: DroppedFile,
  inbox: InboxStore,
  summary: ImportSummary,
  errorsFile: string | undefined,
  d: Pick<SettleDeps, "startChecks">,
): Promise<boolean> {
  const locked = await d.startChecks.noting(f.job, f.sha256, async () => {
    if (await settledSummary(f, inbox, "done")) {
      await inbox.remove("processing", `${f.file}.errors.csv`);
      return false;
    }
    await settleFile(inbox, f.file, "done", summary, errorsFile);
    return true;
  });
  return locked.acquired && locked.value;
}

/** Rejected: the file into rejected/ with its summary, the registry told. */
export async function settleRejected(
  f: DroppedFile,
  inbox: InboxStore,
  summary: ImportSummary,
  d: Pick<SettleDeps, "registry" | "fileRows">,
): Promise<void> {
  await settleFile(inbox, f.file, "rejected", summary);
  await d.registry.settle(f.job, f.sha256, "rejected");
  await d.fileRows.drop(fileIdentity(f.job, f.sha256, f.gen));
}

/**
 * The summary an attempt of this admission left in `outcome`/ beside the file itself: the move
 * there happened (a bucket's copy may be left in processing/: removed). A summary older than the
 * admission is an earlier life's (the same content dropped again after its record was forgotten).
 */
async function settledSummary(
  f: DroppedFile,
  inbox: InboxStore,
  outcome: "done" | "rejected",
): Promise<ImportSummary | undefined> {
  if (!(await inbox.exists(outcome, f.file))) return undefined;
  const text = await inbox.readText(outcome, `${f.file}.summary.json`);
  if (!text) return undefined;
  const summary = JSON.parse(text) as ImportSummary;
  if (Date.parse(summary.finishedAt) < f.admittedAt) return undefined;
  await inbox.remove("processing", f.file);
  return summary;
}

/**
 * A file settled in done/ by an attempt that died before it could report: its campaigns asked for
 * again (nothing is made twice) and the registry told. Undefined when there is no such summary.
 */
export async function settledEarlier(
  def: JobDefinition,
  f: DroppedFile,
  inbox: InboxStore,
  d: SettleDeps,
): Promise<ImportSummary | undefined> {
  const summary = await settledSummary(f, inbox, "done");
  if (!summary) return undefined;
  // Its rows as its import kept them; else read from the file in done/ (downloaded only then).
  let copy: Awaited<ReturnType<InboxStore["local"]>>;
  const path = async () => {
    copy ??= await inbox.local("done", f.file);
    if (!copy) throw new Error(`${inbox.whereIs("done", f.file)} is gone: its rows can't be read again`);
    return copy.path;
  };
  const creator = fileIdentity(f.job, f.sha256, f.gen);
  try {
    const at = inbox.whereIs("done", f.file);
    await requestCampaigns(def, f, summary, at, d, keptRows(def, { creator, path }, d.fileRows));
  } finally {
    await copy?.release();
  }
  await d.registry.settle(f.job, f.sha256, "done");
  return summary;
}

/** A file settled in rejected/ by an attempt that died before it could report: the registry told. */
export async function rejectedEarlier(
  f: DroppedFile,
  inbox: InboxStore,
  d: Pick<SettleDeps, "registry" | "fileRows">,
): Promise<ImportSummary | undefined> {
  const summary = await settledSummary(f, inbox, "rejected");
  if (!summary) return undefined;
  await d.registry.settle(f.job, f.sha256, "rejected");
  await d.fileRows.drop(fileIdentity(f.job, f.sha256, f.gen));
  return summary;
}

const counts = (s: ImportSummary) => ({
  created: s.created ?? 0,
  known: s.known ?? 0,
  elsewhere: s.elsewhere ?? 0,
});
