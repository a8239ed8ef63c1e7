import type { JobDefinition } from "../../config/job-definition.ts";
import { experimentSeed } from "../../config/variant-definition.ts";
import type { AssignmentState } from "../variant-assignment.ts";
import { grantAll } from "./dialer-assignment.ts";
import { dialerSharesOf, poolNumbers, poolOf } from "./dialer-pool.ts";
import { type FactSources, gatherFacts } from "./gather-facts.ts";
import { type Plan, planCampaigns } from "./plan-campaigns.ts";
import { planSettingsOf } from "./plan-settings.ts";
import { SKIP_REASONS } from "./skip-reasons.ts";
import { campaignsByVariant, type VariantCampaign } from "./variant-campaigns.ts";

/** What `vcw preview` prints (`--json`): the plan, phones whole, times as ISO strings. */
export interface PreviewReport {
  job: string;
  file: string;
  at: string;
  /** null: not paced (a job without `calling:`: each campaign takes all its contacts at its opening). */
  pace: { callsPerMinute: number | null; learned: boolean };
  campaigns: (Omit<VariantCampaign, "scheduledAt" | "callUntil" | "expectedEndAt"> & {
    contacts: number;
    /** Its pool dialer (`campaign.dialers`), its number, and why its contacts matched it. */
    dialer?: { name: string; number: string; matched: Record<string, number> };
    scheduledAt: string;
    /** Why it starts then, when the hold after its create decided it (the CLI's `startReason`). */
    startReason?: string;
    callUntil: string;
    expectedEndAt: string;
  })[];
  later: Plan["later"];
  /** Reason -> contacts: the planner's reasons and the invalid rows' codes. */
  skipped: Record<string, number>;
}

/** What a preview reads: the facts, the dialer's pace, the experiment's decisions. */
export type PreviewSources = FactSources & {
  pace(): Promise<number | undefined>;
  /** The experiment's stops and promotion (`campaign.variants`), as assignment honours them. */
  assignment?(): Promise<AssignmentState>;
  /** A dialer resource's number as applied (`campaign.dialers`). */
  dialerNumber?(resource: string): Promise<string>;
  /** The pool numbers resting now (read, not decided: the preview writes nothing). */
  resting?(numbers: readonly string[]): Promise<ReadonlySet<string>>;
};

/**
 * The campaigns a file would get if dropped at `at`, each started no sooner than `holdMs` after it
 * (the daemon's settle time or start lead): the same facts and the same pure planner as the
 * daemon, through reads only. Every valid row counts as new (the daemon plans the file's new
 * contacts: rows already in the job's segment are not called again).
 */
export async function previewFile(
  def: JobDefinition,
  path: string,
  sources: PreviewSources,
  at: number,
  holdMs = 0,
): Promise<PreviewReport> {
  const learned = await sources.pace();
  const settings = planSettingsOf(def, at, at, learned, holdMs);
  const facts = await gatherFacts(def, path, sources, at);
  const plan = planCampaigns(facts.contacts, settings);
  const skipped: Record<string, number> = { ...plan.skipped, ...facts.invalid };
  const iso = (t: number) => new Date(t).toISOString();
  return {
    job: def.name,
    file: path,
    at: iso(at),
    pace: {
      callsPerMinute: Number.isFinite(settings.pacePerMinute) ? settings.pacePerMinute : null,
      learned: learned !== undefined,
    },
    campaigns: (
      await byPoolDialer(
        def,
        campaignsByVariant(
          experimentSeed(def.name, def.campaign?.experiment),
          plan.campaigns,
          def.campaign?.variants,
          await sources.assignment?.(),
        ),
        sources,
        skipped,
      )
    ).map((c) => ({
      ...c,
      contacts: c.phones.length,
      scheduledAt: iso(c.scheduledAt),
      callUntil: iso(c.callUntil),
      expectedEndAt: iso(c.expectedEndAt),
    })),
    later: plan.later,
    skipped,
  };
}

/**
 * Each campaign split by its contacts' pool dialers, as the daemon splits it with budgets unspent
 * (the preview writes nothing, so it grants all); contacts no dialer matches are counted skipped.
 */
async function byPoolDialer(
  def: JobDefinition,
  campaigns: readonly VariantCampaign[],
  sources: PreviewSources,
  skipped: Record<string, number>,
): Promise<
  (VariantCampaign & { dialer?: { name: string; number: string; matched: Record<string, number> } })[]
> {
  const pool = poolOf(def);
  if (!pool) return [...campaigns];
  const all = await poolNumbers(pool, (name) => {
    if (!sources.dialerNumber) throw new Error(`preview can't read dialer resource ${name}`);
    return sources.dialerNumber(name);
  });
  // As the daemon: a resting number is left out unless every number rests.
  const resting = (await sources.resting?.(all.map((n) => n.number))) ?? new Set<string>();
  const healthy = all.filter((n) => !resting.has(n.number));
  const numbers = healthy.length > 0 ? healthy : all;
  const out: (VariantCampaign & {
    dialer: { name: string; number: string; matched: Record<string, number> };
  })[] = [];
  for (const c of campaigns) {
    const { shares, unmatched } = await dialerSharesOf(
      pool,
      numbers,
      c.phones,
      c.scheduledAt,
      c.label,
      grantAll,
    );
    if (unmatched.length > 0)
      skipped[SKIP_REASONS.noDialerMatch] = (skipped[SKIP_REASONS.noDialerMatch] ?? 0) + unmatched.length;
    for (const s of shares)
      out.push({
        ...c,
        label: `${c.label} via ${s.dialer}`,
        phones: s.phones,
        dialer: { name: s.dialer, number: s.number, matched: s.matched },
      });
  }
  return out;
}
