import type { Client } from "../../api/client.ts";
import { NotFoundError } from "../../api/errors/index.ts";
import { underCallingRules } from "../../config/calling-rules-switch.ts";
import { ingestOptionsOf } from "../../config/ingest-options.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import type { FileRecord, FileRegistry } from "../../inbox/file-registry.ts";
import type { IngestOptions } from "../../ingest/options.ts";
import { openConsentGate } from "../consent/consent-gate.ts";
import type { ConsentRule } from "../consent/consent-record.ts";
import { forgetSegment, resolveSegment, type SegmentTarget } from "../contacts/resolve-segment.ts";
import { fillPattern } from "../name-pattern.ts";
import type { AuditLog } from "../stores/audit-log.ts";
import type { CallHistory } from "../stores/call-history.ts";
import type { ConsentStore } from "../stores/consent-store.ts";
import type { ContactLedger } from "../stores/contact-ledger.ts";
import type { CreateMemo } from "../stores/create-memo.ts";
import type { FileRowsStore } from "../stores/file-rows.ts";
import type { SuppressionList } from "../stores/suppression.ts";
import { type ImportCheckpoint, type ImportFileResult, importFile, type SkipRule } from "./import-file.ts";

/** What to import into where: a job's definition, or an ad-hoc segment (`vcw import --segment`). */
export interface ImportSpec {
  /** The job the file belongs to; its registry remembers the content. Absent for ad-hoc imports. */
  job?: string;
  /** The segment; a name may be a pattern ({job} {date} {file} {sha}). */
  segment: SegmentTarget;
  ingest: Partial<IngestOptions>;
  concurrency: number;
  /** Numbers a campaign called less than this ago are skipped (`recently_called`); 0: never. */
  recallAfterMs: number;
  /** The location columns the calling rules read (`calling.location`); undefined without them. */
  location?: { timezone?: string | undefined; region?: string | undefined } | undefined;
  /** The consent a row needs (`calling.consent`); consent columns are read whatever it says. */
  consent: ConsentRule;
}

export const importSpecOf = (def: JobDefinition): ImportSpec => ({
  job: def.name,
  segment: def.segment,
  ingest: ingestOptionsOf(def),
  concurrency: def.import.concurrency,
  // Without a campaign, nobody is called: nothing is too recent to file.
  recallAfterMs: def.campaign ? def.calling.caps.recallAfterDays * 86_400_000 : 0,
  ...(underCallingRules(def) ? { location: locationColumnsOf(def) } : {}),
  consent: def.calling.consent,
});

/** The headers of the job's location columns, as `calling.location` names them (not its fallback zone). */
function locationColumnsOf(def: JobDefinition): ImportSpec["location"] {
  const { fallbackTimezone: _, ...columns } = def.calling.location;
  return columns;
}

/** A file's identity across attempts: who its new contacts were created by, and its campaigns' prefix. */
export const fileIdentity = (job: string, sha256: string, gen: number) => `${job}:${sha256}:${gen}`;

export interface ImportRequest {
  spec: ImportSpec;
  /** The file to read. */
  path: string;
  sha256: string;
  /** The name it arrived under. */
  original: string;
  /** When it was admitted: `{date}` in name patterns, the same for every attempt. */
  admittedAt: number;
  /** This attempt, in the ledger. */
  owner: string;
  /** The file's identity (`fileIdentity`): its new contacts are recorded as its own. */
  creator?: string;
  errorsPath: string;
  resume?: ImportCheckpoint | undefined;
  /** Saves progress; `segmentId` lets a later attempt and `vcw status` say where it goes. */
  checkpoint?: (at: ImportCheckpoint, segmentId: string) => Promise<void>;
  checkpointMs?: number;
  waitPollMs?: number;
  signal?: AbortSignal;
}

/** A file's contacts imported: the segment they went to, and how each row ended. */
export interface ImportedFile extends ImportFileResult {
  segment: { id: string; name?: string | undefined };
}

export interface ImportUseCaseDeps {
  client: Client;
  /** The segment's create, once (its id, sent mark and lock). */
  memo: Pick<CreateMemo, "segment">;
  /** Ledger lease: must outlast any request still in flight (timeout × attempts, plus margin). */
  leaseMs: number;
  /** The exactly-once ledger of contacts, built once (daemon/services.ts). */
  ledger: ContactLedger;
  registry: FileRegistry;
  suppression: SuppressionList;
  history: CallHistory;
  /** Where a job's file keeps its valid rows, for its plan and campaigns. */
  fileRows: Pick<FileRowsStore, "writer">;
  /** Consent and revocations per number (across jobs). */
  consent: ConsentStore;
  /** The audit trail: every row of a job's file set aside, and why. */
  audit: Pick<AuditLog, "append">;
}

/**
 * The one import use case, for the daemon and `vcw import` alike: the segment (a pattern filled,
 * found or created once), the exactly-once ledger, the suppression list, the rule that a segment
 * the service no longer knows is forgotten, and the registry of imported contents.
 */
export function createImportUseCase(d: ImportUseCaseDeps) {
  return {
    /** The earlier import of the same content for `job`, if it finished. */
    async imported(job: string, sha256: string): Promise<FileRecord | undefined> {
      const seen = await d.registry.get(job, sha256);
      return seen?.state === "done" ? seen : undefined;
    },

    async run(r: ImportRequest): Promise<ImportedFile> {
      const target = segmentTargetFor(r.spec, r);
      const segment = await resolveSegment(d.client, d.memo, target, {
        lockMs: d.leaseMs,
        settleMs: d.ledger.settleMs,
      });
      let result: ImportFileResult;
      try {
        result = await importFile(r.path, {
          client: d.client,
          ledger: d.ledger,
          segmentId: segment.id,
          owner: r.owner,
          ingest: r.spec.ingest,
          concurrency: r.spec.concurrency,
          errorsPath: r.errorsPath,
          resume: r.resume,
          ...(r.checkpoint ? { checkpoint: (at) => r.checkpoint!(at, segment.id) } : {}),
          ...(r.checkpointMs === undefined ? {} : { checkpointMs: r.checkpointMs }),
          ...(r.waitPollMs === undefined ? {} : { waitPollMs: r.waitPollMs }),
          ...(r.signal ? { signal: r.signal } : {}),
          skip: skipRules(d, r),
          ...(r.spec.job && r.creator
            ? { refused: refusalAudit(d.audit, r.spec.job, r.creator, r.original) }
            : {}),
          consent: (headers) =>
            openConsentGate(
              headers,
              { ...r.spec.consent, file: r.original },
              { consent: d.consent, suppression: d.suppression, now: Date.now },
            ),
          ...(r.creator ? { creator: r.creator } : {}),
          // A file's rows kept for its plan and campaigns (a job's file: it has an identity).
          ...(r.creator
            ? {
                rows: {
                  location: r.spec.location,
                  open: (headers: readonly string[]) => d.fileRows.writer(r.creator!, headers),
                },
              }
            : {}),
        });
      } catch (error) {
        // The service lost the remembered segment (deleted, or its data reset): look again next time.
        if (error instanceof NotFoundError) await forgetSegment(d.memo, target, segment.id);
        throw error;
      }
      if (r.spec.job) await d.registry.markDone(r.spec.job, r.sha256, r.original);
      return { segment: { id: segment.id, name: "name" in target ? target.name : undefined }, ...result };
    },
  };
}

export type ImportUseCase = ReturnType<typeof createImportUseCase>;

/** Rows not sent: on a do-not-call list or opted out (every path), and numbers another campaign called recently. */
function skipRules(d: ImportUseCaseDeps, r: ImportRequest): SkipRule[] {
  const days = Math.round((10 * r.spec.recallAfterMs) / 86_400_000) / 10;
  let listed = new Map<string, string>();
  return [
    {
      reason: "do_not_call",
      which: async (phones) => {
        listed = await d.suppression.doNotCall(phones);
        return new Set(listed.keys());
      },
      message: (phone) =>
        `${phone} is on the do-not-call list "${listed.get(phone)}" (vcw suppress list; vcw contact ${phone})`,
    },
    {
      reason: "opted_out",
      which: (phones) => d.suppression.optedOut(phones),
      message: (phone) => `${phone} opted out in an earlier campaign (vcw suppress remove to call it again)`,
    },
    {
      reason: "recently_called",
      which: (phones) =>
        d.history.recentlyCalled(phones, r.spec.recallAfterMs, Date.now(), r.creator && `${r.creator}:`),
      message: (phone) =>
        `${phone} was called by another campaign in the last ${days} days (calling.caps.recallAfterDays; vcw contact ${phone})`,
    },
  ];
}

/** Each refused row of a job's file in the audit trail, once per row however often the file is retried. */
const refusalAudit =
  (audit: Pick<AuditLog, "append">, job: string, creator: string, file: string) =>
  async (row: { phone: string; index: number; line: number }, why: { reason: string; message: string }) => {
    const entry = {
      at: Date.now(),
      decision: "refused" as const,
      phone: row.phone,
      job,
      file,
      row: row.line,
      ...why,
    };
    await audit.append(`file:${creator}`, [{ item: String(row.index), entry }]);
  };

/** The segment of one file: a name pattern filled with the file's values. */
export function segmentTargetFor(
  spec: ImportSpec,
  f: { original: string; sha256: string; admittedAt: number },
): SegmentTarget {
  if (!("name" in spec.segment)) return spec.segment;
  const name = fillPattern(spec.segment.name, {
    job: spec.job ?? "",
    file: f.original,
    sha256: f.sha256,
    at: f.admittedAt,
  });
  return { ...spec.segment, name };
}

/** Contacts of an imported file that are in its segment now, whoever created them. */
export const contactsIn = (f: Pick<ImportFileResult, "created" | "known" | "elsewhere">) =>
  f.created + f.known + f.elsewhere;
