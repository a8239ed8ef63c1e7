import type { Client } from "../../api/client.ts";
import { openErrorReport } from "../../ingest/error-report.ts";
import { hintsOf, locationColumns } from "../../ingest/location-columns.ts";
import type { IngestOptions } from "../../ingest/options.ts";
import { type RowOutcome, type SkipReason, skipValid, type Totals, topCodes } from "../../ingest/outcome.ts";
import { ContactFileReader } from "../../ingest/reader.ts";
import { type ContactToImport, type ImportCounts, importContacts } from "../contacts/import-contacts.ts";
import type { ContactLedger } from "../stores/contact-ledger.ts";
import type { FileRow } from "../stores/file-rows.ts";
import { Watermark } from "./watermark.ts";

/** Valid rows not to send, and why. */
export interface SkipRule {
  reason: SkipReason;
  /** Which of `phones` the rule skips. */
  which: (phones: string[]) => Promise<Set<string>>;
  /** What the error report says of a skipped phone. */
  message: (phone: string) => string;
}

/** Where an import stands: saved as it goes, so a restarted attempt resumes from `cursor`. */
export interface ImportCheckpoint {
  /** Every data row below this index is settled. */
  cursor: number;
  /** Data rows read so far by this attempt. */
  rowsRead: number;
  created: number;
  known: number;
  elsewhere: number;
  failed: number;
  reconciles: number;
}

export const START: ImportCheckpoint = {
  cursor: 0,
  rowsRead: 0,
  created: 0,
  known: 0,
  elsewhere: 0,
  failed: 0,
  reconciles: 0,
};

export interface ImportFileOptions {
  client: Client;
  ledger: ContactLedger;
  segmentId: string;
  /** Identifies this attempt in the ledger; a new one per attempt. */
  owner: string;
  ingest?: Partial<IngestOptions>;
  concurrency?: number;
  /** Error report path; written when there is something in it. */
  errorsPath: string;
  /** The last checkpoint of an earlier attempt of the same file. */
  resume?: ImportCheckpoint | undefined;
  /** Saves a checkpoint; called at most every `checkpointMs` and at the end. */
  checkpoint?: (at: ImportCheckpoint) => Promise<void>;
  checkpointMs?: number;
  waitPollMs?: number;
  signal?: AbortSignal;
  /** Rows not to send (opted out, recently called), in order: reported as skipped with their reason. */
  skip?: readonly SkipRule[];
  /** Contacts created are recorded as this file's (its identity): the file's audience. */
  creator?: string;
  /** Where the file's valid rows go as they are read, for its plan and campaigns (read once). */
  rows?: RowSink | undefined;
  /** Tells the audit trail of each valid row set aside, and why. */
  refused?:
    | ((
        row: { phone: string; index: number; line: number },
        why: { reason: SkipReason; message: string },
      ) => Promise<void>)
    | undefined;
  /** The consent check of the file's rows (consent/consent-gate.ts); undefined or none opened: none. */
  consent?: ((headers: readonly string[]) => RowGate | undefined) | undefined;
  /**
   * Rows read ahead and checked together (each skip rule asks once for all of them): a file with a
   * consent gate is checked a row at a time, as its revocations write as they are read. Default 64.
   */
  readAhead?: number;
}

/** Skip rules ask once per this many rows read ahead (decision 0068). */
export const READ_AHEAD = 64;

/** Why a valid row is refused (its consent), naming the field; undefined: it passes. */
export type RowGate = (row: {
  phone: string;
  cells: readonly string[];
  index: number;
  line: number;
}) => Promise<{ field: string; code: SkipReason; message: string } | undefined>;

/** Keeps a file's valid rows; `close`: the whole file was read. */
export interface RowSink {
  /** The location columns the calling rules read (`calling.location`); undefined: none read. */
  location?: { timezone?: string | undefined; region?: string | undefined } | undefined;
  open(headers: readonly string[]): Promise<{
    add(row: FileRow): Promise<void>;
    close(): Promise<void>;
  }>;
}

export interface ImportFileResult {
  totals: Totals;
  topErrors: { code: string; rows: number }[];
  /** Contacts of the file created in the segment (by this import, across its attempts). */
  created: number;
  /** Already in the segment before (an earlier file, or an earlier attempt of this one). */
  known: number;
  /** Created meanwhile by a concurrent import. */
  elsewhere: number;
  /** Refused by the service (listed in the error report). */
  failed: number;
  reconciles: number;
  /** Data row this attempt resumed from (0 for a fresh start). */
  resumedFrom: number;
  errorsFile: string | undefined;
}

/**
 * Imports one CSV file into a segment: reads and validates it (writing the error report), and
 * creates its valid contacts exactly once, resuming from a checkpoint.
 */
export async function importFile(file: string, o: ImportFileOptions): Promise<ImportFileResult> {
  const base = o.resume ?? START;
  const reader = await ContactFileReader.open(file, o.ingest);
  const report = await openErrorReport(o.errorsPath, reader.info.headers, { fileBytes: reader.info.bytes });
  const mark = new Watermark(base.cursor);
  const kept = await o.rows?.open(reader.info.headers);
  const columns = o.rows?.location && locationColumns(reader.info.headers, o.rows.location);
  const gate = o.consent?.(reader.info.headers);
  let live: ImportCounts | undefined;
  let rowsRead = 0;
  let savedAt = performance.now();
  const every = o.checkpointMs ?? 1000;

  const snapshot = (): ImportCheckpoint => ({
    cursor: mark.value,
    rowsRead,
    created: base.created + (live?.created ?? 0),
    known: base.known + (live?.known ?? 0),
    elsewhere: base.elsewhere + (live?.elsewhere ?? 0),
    failed: base.failed + (live?.failed.length ?? 0),
    reconciles: base.reconciles + (live?.reconciles ?? 0),
  });

  // A row an earlier attempt imported before a rule applied to it (an opt-out, its own campaign)
  // stays imported.
  const importedEarlier = async (phone: string, index: number) =>
    index < base.cursor && (await o.ledger.isDone(o.segmentId, phone));

  type Skip = { reason: SkipReason; message: string; field?: string };

  /**
   * Why each valid row of `batch` is set aside (its consent, then the skip rules), if it is: the
   * consent gate row by row in file order (a duplicate's revocation included), then each skip rule
   * once for the batch's phones. Every row's checks end before any of the batch is sent.
   */
  const skipsOf = async (batch: readonly RowOutcome[]): Promise<Map<number, Skip>> => {
    const skips = new Map<number, Skip>();
    const checked: { phone: string; index: number }[] = [];
    for (const outcome of batch) {
      // A duplicate row's revocation counts as any row's (its consent is kept too); the row stays a duplicate.
      if (outcome.kind === "duplicate") await gate?.(outcome);
      if (outcome.kind !== "valid") continue;
      const refused = await gate?.(outcome);
      if (!refused) checked.push(outcome);
      else if (!(await importedEarlier(outcome.phone, outcome.index)))
        skips.set(outcome.index, { reason: refused.code, message: refused.message, field: refused.field });
    }
    if (checked.length === 0) return skips;
    const phones = checked.map((r) => r.phone);
    const hits: Set<string>[] = [];
    for (const rule of o.skip ?? []) hits.push(await rule.which(phones));
    for (const row of checked) {
      const at = hits.findIndex((hit) => hit.has(row.phone));
      if (at < 0 || (await importedEarlier(row.phone, row.index))) continue;
      const rule = o.skip![at]!;
      skips.set(row.index, { reason: rule.reason, message: rule.message(row.phone) });
    }
    return skips;
  };

  // With a consent gate, a row at a time: its Redis writes (a revocation) come before the next row's checks.
  const ahead = gate ? 1 : Math.max(1, o.readAhead ?? READ_AHEAD);

  async function* rows(): AsyncGenerator<ContactToImport[]> {
    let batch: RowOutcome[] = [];
    for await (const outcome of reader) {
      rowsRead += 1;
      batch.push(outcome);
      if (batch.length < ahead) continue;
      yield* settle(batch);
      batch = [];
    }
    if (batch.length > 0) yield* settle(batch);
  }

  /** The batch's rows, in order: each kept, checked, reported; those to send handed on together. */
  async function* settle(batch: readonly RowOutcome[]): AsyncGenerator<ContactToImport[]> {
    for (const outcome of batch) {
      if (outcome.kind === "valid" && kept) {
        const { phone, index, line, contact, cells } = outcome;
        await kept.add({
          phone,
          index,
          line,
          contact,
          hints: hintsOf(cells, columns),
        });
      }
    }
    const skips = await skipsOf(batch);
    const out: ContactToImport[] = [];
    for (const outcome of batch) {
      const skip = outcome.kind === "valid" ? skips.get(outcome.index) : undefined;
      if (outcome.kind === "valid" && skip) {
        skipValid(reader.totals, skip.reason);
        mark.read(outcome.index, true);
        await report.add({
          kind: "skipped",
          line: outcome.line,
          index: outcome.index,
          cells: outcome.cells,
          ...skip,
        });
        await o.refused?.(outcome, skip);
        continue;
      }
      if (outcome.kind !== "valid" || outcome.warnings.length > 0) await report.add(outcome);
      const send = outcome.kind === "valid" && outcome.index >= base.cursor;
      mark.read(outcome.index, !send);
      if (outcome.kind === "valid" && send) {
        out.push({
          phone: outcome.phone,
          contact: outcome.contact,
          index: outcome.index,
          line: outcome.line,
          cells: outcome.cells,
        });
      }
    }
    if (out.length > 0) yield out;
    if (o.checkpoint && performance.now() - savedAt >= every) {
      savedAt = performance.now();
      await o.checkpoint(snapshot());
    }
  }

  try {
    const counts = await importContacts(rows(), {
      client: o.client,
      ledger: o.ledger,
      segmentId: o.segmentId,
      owner: o.owner,
      country: o.ingest?.defaultCountry,
      ...(o.creator ? { creator: o.creator } : {}),
      ...(o.concurrency === undefined ? {} : { concurrency: o.concurrency }),
      ...(o.waitPollMs === undefined ? {} : { waitPollMs: o.waitPollMs }),
      ...(o.signal ? { signal: o.signal } : {}),
      onProgress: (c) => {
        live = c;
      },
      onSettled: (index) => mark.settle(index),
    });
    live = counts;
    for (const f of counts.failed) {
      await report.add({
        kind: "rejected",
        line: f.line ?? 0,
        index: f.index,
        cells: f.cells ?? [],
        issues: [{ field: "phone", value: f.phone, code: "service_rejected", message: f.message }],
      });
    }
    await kept?.close();
    const done = snapshot();
    await o.checkpoint?.(done);
    const written = report.lines > 0;
    if (written) await report.close();
    else await report.discard();
    return {
      totals: reader.totals,
      topErrors: topCodes(reader.totals),
      created: done.created,
      known: done.known,
      elsewhere: done.elsewhere,
      failed: done.failed,
      reconciles: done.reconciles,
      resumedFrom: base.cursor,
      errorsFile: written ? report.path : undefined,
    };
  } catch (error) {
    await report.discard();
    if (o.checkpoint && live) await o.checkpoint(snapshot()).catch(() => undefined);
    throw error;
  }
}
