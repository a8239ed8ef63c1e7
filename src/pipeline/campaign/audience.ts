import { underCallingRules } from "../../config/calling-rules-switch.ts";
import { countryOf } from "../../config/ingest-options.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import { experimentId, experimentSeed } from "../../config/variant-definition.ts";
import type { Plan } from "../calling/plan-campaigns.ts";
import { inCalleeZone } from "../calling/plan-settings.ts";
import type { ContactToImport } from "../contacts/import-contacts.ts";
import type { AuditLog } from "../stores/audit-log.ts";
import type { CallFrequency } from "../stores/call-frequency.ts";
import type { CallHistory } from "../stores/call-history.ts";
import type { ExperimentStore } from "../stores/experiment-store.ts";
import type { FileRow, FileRows, FileRowsStore } from "../stores/file-rows.ts";
import type { PaceStore } from "../stores/pace-store.ts";
import type { PlanStore } from "../stores/plan-store.ts";
import type { SuppressionList } from "../stores/suppression.ts";
import { splitByVariant } from "../variant-assignment.ts";
import { assignVariant } from "./assign-variant.ts";
import { campaignName, scheduledAtFor } from "./create-campaign.ts";
import {
  addCounts,
  type CampaignDialer,
  type DialerPoolDeps,
  dialerReport,
  splitByDialer,
} from "./dialer-split.ts";
import { keptRows } from "./kept-rows.ts";
import { type CampaignRequest, campaignKey } from "./lifecycle.ts";
import { fileIntoOwnSegment, type OwnSegmentDeps } from "./own-segment.ts";
import { type PlannedReport, planFile, plannedAudiencesOf } from "./planned-audiences.ts";
import { reservationSpan } from "./reservation-span.ts";
import { holdMsOf, type StartHold, startReasonOf } from "./start-reason.ts";

/** A file's own segments are filed through `OwnSegmentDeps` (client, ledger, lease). */
export interface AudienceDeps extends OwnSegmentDeps, StartHold, DialerPoolDeps {
  suppression: SuppressionList;
  history: CallHistory;
  /** Calling rules (`calling:`): the caps' store and the dialers' learned pace. */
  frequency: CallFrequency;
  pace: PaceStore;
  /** The valid rows each import kept (stores/file-rows.ts). */
  fileRows: Pick<FileRowsStore, "read">;
  /** Each file's calling plan, made once; the experiments' decisions that assignment honours. */
  plans: PlanStore;
  experiments: Pick<ExperimentStore, "assignment" | "assign">;
  /** The audit trail: each contact the plan sets aside, and why. */
  audit?: Pick<AuditLog, "append">;
}

/** An imported file, as its campaigns need it. */
export interface ImportedFileRef {
  job: string;
  sha256: string;
  gen: number;
  original: string;
  /** Where it is now, to read its rows when its import could not keep them. */
  path: string;
  /** When it was admitted: `{date}` in names, the same for every attempt. */
  admittedAt: number;
  /** Its identity: its new contacts are recorded in the ledger as its own. */
  creator: string;
  /** Its valid rows (read once: as its import kept them); default: looked up here. */
  rows?: () => Promise<FileRows>;
  /** The job's segment it was filed in, and how many of its contacts are in it. */
  segmentId: string;
  contacts: number;
}

/** Who a file's campaigns call, as the file's summary reports it. */
export interface AudienceReport {
  /** The file's new contacts: created by its import. */
  new: number;
  /** Of those, opted out since (or put on a do-not-call list), or put in another campaign within the cooldown meanwhile. */
  optedOut: number;
  /** Of the opted out, those on a do-not-call list (vcw suppress import) since the import; absent when none. */
  doNotCall?: number;
  recentlyCalled: number;
  /** One campaign per zone (one with no zone unless the window says `timezone: callee`). */
  campaigns: {
    zone?: string;
    variant?: string;
    name: string;
    contacts: number;
    scheduledAt: string;
    /** Why it starts then, when the hold after its create decided it: "60 s after its create: VCW_SETTLE_MS". */
    startReason?: string;
    region?: string;
    expectedEndAt?: string;
    callUntil?: string;
    /** Its pool dialer, its number and why its contacts matched it (`campaign.dialers`). */
    dialer?: CampaignDialer;
  }[];
  /** Under calling rules: the contacts set aside by the plan, by reason (`vcw preview` shows the same). */
  skipped?: PlannedReport["skipped"];
  /** Under calling rules: contacts planned at later openings. */
  later?: PlannedReport["later"];
  /** Pool numbers resting when the file was planned, and their figures (`campaign.dialers`). */
  resting?: PlannedReport["resting"];
}

/**
 * The campaigns of an imported file (audience `file`, the default): exactly its new, callable
 * contacts, grouped by their own time zone when the window says `timezone: callee`, each group in a
 * segment of its own (named like its campaign) and reserved in the call history, so no other
 * campaign calls them within the cooldown. With audience `segment`, the job's whole segment.
 * Repeatable: segments are created once, contacts through the ledger, reservations by key.
 */
export async function audiencesOf(
  def: JobDefinition,
  f: ImportedFileRef,
  d: AudienceDeps,
  now: number,
): Promise<{ requests: CampaignRequest[]; report: AudienceReport }> {
  const c = def.campaign;
  const report: AudienceReport = { new: 0, optedOut: 0, recentlyCalled: 0, campaigns: [] };
  if (!c || f.contacts === 0) return { requests: [], report };
  const base = { job: f.job, sha256: f.sha256, gen: f.gen, original: f.original, attempt: 0 };
  const name = (zone?: string, variant?: string) =>
    campaignName(c.name, {
      job: f.job,
      file: f.original,
      sha256: f.sha256,
      now: f.admittedAt,
      attempt: 0,
      zone,
      variant,
    });
  if (c.audience === "segment") {
    const request = { ...base, segmentId: f.segmentId, name: name(), contacts: f.contacts };
    report.campaigns.push(standingReport(c.start, request, d, now));
    return { requests: [request], report };
  }

  const created = await d.ledger.createdBy(f.segmentId, f.creator);
  report.new = created.length;
  const rows = f.rows ?? keptRows(def, { creator: f.creator, path: async () => f.path }, d.fileRows);
  const fileContacts = async (request: CampaignRequest, phones: ReadonlySet<string>) =>
    fileInOwnSegment(def, f, d, request, (await rows()).rows, phones);
  if (underCallingRules(def)) {
    const planned = await plannedAudiencesOf(def, f, rows, created, d, now, fileContacts, name);
    report.optedOut = planned.report.skipped.opted_out ?? 0;
    report.recentlyCalled = planned.report.skipped.recently_called ?? 0;
    return { requests: planned.requests, report: { ...report, ...planned.report } };
  }
  // Planned without rules: the job's window, a campaign per zone when it is the callee's.
  const plan = await planFile(def, f, rows, created, d, now);
  report.optedOut = plan.skipped.opted_out ?? 0;
  const listed = await d.suppression.doNotCall(created);
  if (listed.size > 0) report.doNotCall = listed.size;
  const groups = await zoneVariantGroups(def, plan, d);

  const requests: CampaignRequest[] = [];
  for (const { zone, variant, at, phones } of groups) {
    const planned: CampaignRequest = {
      ...base,
      segmentId: "",
      name: name(zone, variant),
      ...(zone ? { zone } : {}),
      ...(variant ? { variant } : {}),
    };
    const split = await splitByDialer(def, planned, phones, at, d, now);
    if (split.resting.length > 0) report.resting = split.resting;
    if (Object.keys(split.skipped).length > 0) {
      report.skipped ??= {};
      addCounts(report.skipped, split.skipped);
    }
    for (const part of split.parts) {
      const request = part.request;
      const phones = part.phones;
      const startAt = Math.max(at, request.budgetFrom ?? at);
      const scheduledAt = new Date(startAt).toISOString();
      const { callable, refused } = await reserved(def, request, phones, startAt, d, now);
      report.recentlyCalled += refused;
      if (variant) await assignVariant(def, d.experiments, { request, variant, phones, callable, at: now });
      if (callable.size === 0) continue;
      requests.push({
        ...request,
        segmentId: await fileContacts(request, callable),
        contacts: callable.size,
      });
      report.campaigns.push({
        ...(zone ? { zone } : {}),
        ...(variant ? { variant } : {}),
        ...dialerReport(part),
        name: request.name,
        contacts: callable.size,
        scheduledAt,
        ...startReasonOf(startAt, now, d),
      });
    }
  }
  return { requests, report };
}

/** A standing segment's one campaign, as the file's summary reports it. */
function standingReport(
  start: NonNullable<JobDefinition["campaign"]>["start"],
  request: { name: string; contacts: number },
  d: AudienceDeps,
  now: number,
) {
  const startAt = Date.parse(scheduledAtFor(start, now, now + holdMsOf(d)));
  return {
    name: request.name,
    contacts: request.contacts,
    scheduledAt: new Date(startAt).toISOString(),
    ...startReasonOf(startAt, now, d),
  };
}

/**
 * The phones of `request` reserved in the call history, for the span it may dial in, so other
 * jobs' caps count it (it has none of its own): those another campaign called within the
 * cooldown are not (`refused`).
 */
async function reserved(
  def: JobDefinition,
  request: CampaignRequest,
  phones: readonly string[],
  startAt: number,
  d: Pick<AudienceDeps, "frequency">,
  now: number,
): Promise<{ callable: Set<string>; refused: number }> {
  const recallMs = def.calling.caps.recallAfterDays * 86_400_000;
  const key = campaignKey(request);
  const waited = request.budgetFrom ? { ...request, notBefore: request.budgetFrom } : request;
  const [from, until] = reservationSpan(def, waited, now) ?? [startAt, startAt];
  const callable = new Set<string>();
  let refused = 0;
  for (const phone of phones) {
    if ((await d.frequency.reserve(phone, key, from, recallMs, [], false, until)) === "ok")
      callable.add(phone);
    else refused += 1;
  }
  return { callable, refused };
}

/** The plan's campaigns (one per zone) split by experiment variant (as they stand: stops and promotions honoured), zones in order. */
async function zoneVariantGroups(def: JobDefinition, plan: Plan, d: Pick<AudienceDeps, "experiments">) {
  const callee = inCalleeZone(def);
  const zones = plan.campaigns
    .map((c) => ({ zone: callee ? c.zone : undefined, at: c.scheduledAt, phones: c.phones }))
    .sort((a, b) => String(a.zone).localeCompare(String(b.zone)));
  const variants = def.campaign?.variants;
  if (!variants) return zones.map((z) => ({ ...z, variant: undefined }));
  const state = await d.experiments.assignment(
    experimentId(def.name, def.campaign?.experiment),
    zones.flatMap((z) => z.phones),
  );
  return zones.flatMap(({ zone, at, phones }) =>
    splitByVariant(experimentSeed(def.name, def.campaign?.experiment), phones, variants, state).map((g) => ({
      zone,
      at,
      ...g,
    })),
  );
}

/** A campaign's contacts, from the file's rows, into a segment of its own named like it: its id. */
async function fileInOwnSegment(
  def: JobDefinition,
  f: ImportedFileRef,
  d: AudienceDeps,
  request: CampaignRequest,
  rows: readonly FileRow[],
  phones: ReadonlySet<string>,
): Promise<string> {
  const { segmentId } = await fileIntoOwnSegment(
    { name: request.name, description: `Contacts of ${f.original} called by campaign ${request.name}` },
    contactsOf(rows, phones),
    { owner: `audience-${campaignKey(request)}`, country: countryOf(def) },
    d,
  );
  return segmentId;
}

/** The rows whose phone is in `phones` (each phone is once in a file's rows). */
async function* contactsOf(
  rows: readonly FileRow[],
  phones: ReadonlySet<string>,
): AsyncGenerator<ContactToImport> {
  for (const row of rows)
    if (phones.has(row.phone)) yield { phone: row.phone, contact: row.contact, index: row.index };
}
