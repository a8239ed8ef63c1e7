import { underCallingRules } from "../../config/calling-rules-switch.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import { experimentId, experimentSeed } from "../../config/variant-definition.ts";
import { appendToErrorReport } from "../../ingest/report-append.ts";
import { factsOf } from "../calling/gather-facts.ts";
import { type Plan, planCampaigns } from "../calling/plan-campaigns.ts";
import { callByOf, dialerKeyOf, planSettingsOf } from "../calling/plan-settings.ts";
import { SKIP_MESSAGES } from "../calling/skip-reasons.ts";
import { campaignsByVariant, type VariantCampaign } from "../calling/variant-campaigns.ts";
import type { AuditLog } from "../stores/audit-log.ts";
import type { CallFrequency } from "../stores/call-frequency.ts";
import type { CallHistory } from "../stores/call-history.ts";
import type { ExperimentStore } from "../stores/experiment-store.ts";
import type { FileRows } from "../stores/file-rows.ts";
import type { RestFigures } from "../stores/number-rests.ts";
import type { PaceStore } from "../stores/pace-store.ts";
import type { PlanStore } from "../stores/plan-store.ts";
import type { SuppressionList } from "../stores/suppression.ts";
import { assignVariant } from "./assign-variant.ts";
import {
  addCounts,
  type CampaignDialer,
  type DialerPart,
  type DialerPoolDeps,
  dialerReport,
  splitByDialer,
} from "./dialer-split.ts";
import { type CampaignRequest, campaignKey } from "./lifecycle.ts";
import { holdMsOf, type StartHold, startReasonOf } from "./start-reason.ts";

/** The stores a plan reads and writes, and the hold after a create (the daemon's settle time and start lead). */
export interface PlannedAudienceDeps extends StartHold, DialerPoolDeps {
  /** Each file's plan, made once; the experiments' decisions that assignment honours. */
  plans: PlanStore;
  experiments: Pick<ExperimentStore, "assignment" | "assign">;
  suppression: SuppressionList;
  history: CallHistory;
  frequency: CallFrequency;
  pace: PaceStore;
  /** The audit trail: each contact the plan sets aside, and why (absent: none kept, a test's). */
  audit?: Pick<AuditLog, "append">;
}

/** What a file's planned campaigns add to its summary's `audience`. */
export interface PlannedReport {
  /** Reason -> contacts the plan or the reservation set aside. */
  skipped: Record<string, number>;
  later: Plan["later"];
  /** Pool numbers resting when the file was planned, and their figures (`campaign.dialers`). */
  resting?: RestFigures[];
  campaigns: {
    zone: string;
    variant?: string;
    region?: string;
    name: string;
    contacts: number;
    scheduledAt: string;
    /** Why it starts then, when the hold after its create decided it: "60 s after its create: VCW_SETTLE_MS". */
    startReason?: string;
    expectedEndAt: string;
    callUntil: string;
    /** Its pool dialer, its number and why its contacts matched it (`campaign.dialers`). */
    dialer?: CampaignDialer;
  }[];
}

/** The file as the plan needs it (see `ImportedFileRef`). */
export interface PlannedFile {
  job: string;
  sha256: string;
  gen: number;
  original: string;
  path: string;
  admittedAt: number;
  creator: string;
}

/**
 * A file's campaigns under calling rules: its new contacts planned once by the pure planner (the
 * same `vcw preview` calls), each planned campaign's numbers reserved (cooldown and caps, exactly
 * once per campaign key), then filed in a segment of their own by `fileContacts`. The plan's skips
 * go to the file's error report the first time it is made.
 */
export async function plannedAudiencesOf(
  def: JobDefinition,
  f: PlannedFile,
  rows: () => Promise<FileRows>,
  newContacts: readonly string[],
  d: PlannedAudienceDeps,
  now: number,
  fileContacts: (request: CampaignRequest, phones: ReadonlySet<string>) => Promise<string>,
  name: (label: string, variant?: string) => string,
): Promise<{ requests: CampaignRequest[]; report: PlannedReport }> {
  const plan = await planFile(def, f, rows, newContacts, d, now);
  const report: PlannedReport = { skipped: { ...plan.skipped }, later: plan.later, campaigns: [] };
  const requests: CampaignRequest[] = [];
  const callBy = callByOf(def, f.admittedAt);
  const variants = def.campaign?.variants;
  const state = variants
    ? await d.experiments.assignment(
        experimentId(def.name, def.campaign?.experiment),
        plan.campaigns.flatMap((c) => c.phones),
      )
    : undefined;
  for (const c of campaignsByVariant(
    experimentSeed(def.name, def.campaign?.experiment),
    plan.campaigns,
    variants,
    state,
  )) {
    const split = await splitByDialer(
      def,
      requestOf(f, c, name(c.label, c.variant), callBy),
      c.phones,
      c.scheduledAt,
      d,
      now,
    );
    addCounts(report.skipped, split.skipped);
    if (split.resting.length > 0) report.resting = split.resting;
    for (const part of split.parts) {
      const made = await partRequest(def, c, part, d, now, fileContacts, report);
      if (made) requests.push(made);
    }
  }
  return { requests, report };
}

/**
 * One dialer's part of a planned campaign: its numbers reserved (cooldown and caps), its variant
 * assigned, its contacts filed in a segment of its own; undefined when none is left to call.
 */
async function partRequest(
  def: JobDefinition,
  c: VariantCampaign,
  part: DialerPart,
  d: PlannedAudienceDeps,
  now: number,
  fileContacts: (request: CampaignRequest, phones: ReadonlySet<string>) => Promise<string>,
  report: PlannedReport,
): Promise<CampaignRequest | undefined> {
  const recallMs = def.calling.caps.recallAfterDays * 86_400_000;
  const request = part.request;
  const key = campaignKey(request);
  const callable = new Set<string>();
  for (const phone of part.phones) {
    const r = await d.frequency.reserve(phone, key, c.scheduledAt, recallMs, c.caps, false, c.callUntil);
    if (r === "ok") callable.add(phone);
    else {
      const reason = r === "cap" ? "frequency_cap" : "recently_called";
      report.skipped[reason] = (report.skipped[reason] ?? 0) + 1;
    }
  }
  if (c.variant)
    await assignVariant(def, d.experiments, {
      request,
      variant: c.variant,
      phones: part.phones,
      callable,
      at: now,
    });
  if (callable.size === 0) return undefined;
  const segmentId = await fileContacts(request, callable);
  // A part that waited for its number's next budget period starts then at the soonest.
  const startAt = Math.max(c.scheduledAt, request.budgetFrom ?? c.scheduledAt);
  report.campaigns.push({
    zone: c.zone,
    ...(c.variant ? { variant: c.variant } : {}),
    ...(c.region ? { region: c.region } : {}),
    ...dialerReport(part),
    name: request.name,
    contacts: callable.size,
    scheduledAt: new Date(startAt).toISOString(),
    ...startReasonOf(startAt, now, d),
    expectedEndAt: new Date(c.expectedEndAt + startAt - c.scheduledAt).toISOString(),
    callUntil: new Date(c.callUntil).toISOString(),
  });
  return { ...request, segmentId, contacts: callable.size };
}

/**
 * The file's plan, made once; under calling rules its skips are written to the error report by the
 * attempt that made it. Without rules the planner reads no call history: the reservation is the
 * cooldown's one check, as it always was for those jobs.
 */
export async function planFile(
  def: JobDefinition,
  f: PlannedFile,
  rows: () => Promise<FileRows>,
  newContacts: readonly string[],
  d: PlannedAudienceDeps,
  now: number,
): Promise<Plan> {
  return d.plans.once<Plan>(f.creator, async () => {
    const ruled = underCallingRules(def);
    const facts = await factsOf(
      def,
      await rows(),
      {
        suppressed: (phones) => d.suppression.which(phones),
        // The file's own earlier reservations (a retry) are not another campaign's.
        lastCalled: async (phones) =>
          ruled ? d.history.lastCalls(phones, `${f.creator}:`) : new Map<string, number>(),
        callTimes: async (phones, at) => (ruled ? d.frequency.callTimes(phones, at) : new Map()),
      },
      now,
      new Set(newContacts),
    );
    const learned = ruled ? await d.pace.pace(dialerKeyOf(def)) : undefined;
    const plan = planCampaigns(facts.contacts, planSettingsOf(def, now, f.admittedAt, learned, holdMsOf(d)));
    await d.audit?.append(
      `file:${f.creator}`,
      plan.skips.map((s) => ({
        item: `plan:${s.phone}`,
        entry: {
          at: now,
          decision: "refused" as const,
          phone: s.phone,
          job: f.job,
          file: f.original,
          row: facts.lines.get(s.phone) ?? 0,
          reason: s.reason,
          message: SKIP_MESSAGES[s.reason],
        },
      })),
    );
    if (!ruled) return plan;
    await appendToErrorReport(
      `${f.path}.errors.csv`,
      facts.headers,
      plan.skips.map((s) => ({
        line: facts.lines.get(s.phone) ?? 0,
        phone: s.phone,
        code: s.reason,
        message: SKIP_MESSAGES[s.reason],
      })),
    );
    return plan;
  });
}

function requestOf(
  f: PlannedFile,
  c: VariantCampaign,
  name: string,
  callBy: number | undefined,
): CampaignRequest {
  return {
    job: f.job,
    sha256: f.sha256,
    gen: f.gen,
    original: f.original,
    attempt: 0,
    segmentId: "",
    name,
    zone: c.zones[0]!,
    slot: c.label,
    ...(c.variant ? { variant: c.variant } : {}),
    ...(c.region ? { region: c.region } : {}),
    scheduledAt: c.scheduledAt,
    callUntil: c.callUntil,
    expectedEndAt: c.expectedEndAt,
    hours: c.hours,
    ...(callBy !== undefined ? { callBy } : {}),
  };
}
