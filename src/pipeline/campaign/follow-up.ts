import { countryOf } from "../../config/ingest-options.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import { e164OfServicePhone } from "../../lib/phone-e164.ts";
import { capsFor } from "../calling/plan-settings.ts";
import type { ContactToImport } from "../contacts/import-contacts.ts";
import type { ResultRecord } from "../model/results.ts";
import { FingerprintIndex } from "../results/fingerprint-index.ts";
import type { CallFrequency } from "../stores/call-frequency.ts";
import type { CampaignRegistry } from "../stores/campaign-registry.ts";
import type { CampaignResults } from "../stores/campaign-results.ts";
import type { DialerBudgets } from "../stores/dialer-budget.ts";
import type { SuppressionList } from "../stores/suppression.ts";
import { campaignKey, followUpCampaign, type Intent } from "./lifecycle.ts";
import { numberBudgetGate } from "./number-budget-gate.ts";
import { fileIntoOwnSegment, type OwnSegmentDeps } from "./own-segment.ts";
import { reservationSpan } from "./reservation-span.ts";

export interface FollowUpDeps extends OwnSegmentDeps {
  store: Pick<CampaignRegistry, "get"> & Pick<CampaignResults, "allRecords">;
  suppression: Pick<SuppressionList, "which">;
  /** Reservations: the cooldown waived, the caps held (calling rules), each counted as a call. */
  frequency: Pick<CallFrequency, "reserve">;
  /** A pool number's budget (`campaign.dialers.perNumber`): a follow-up's calls count against it. */
  budgets?: Pick<DialerBudgets, "grant"> | undefined;
  now: () => number;
}

/** What a finished campaign's follow-up came to: nobody to call again, or its campaign to ask for. */
export type FollowUpOutcome =
  | { kind: "none" }
  | {
      kind: "requested";
      intent: Extract<Intent, { kind: "create-campaign" }>;
      contacts: number;
      created: number;
      segmentId: string;
    };

const BATCH = 500;

/**
 * The follow-up of a finished campaign: its contacts whose result means "try again" (suppressed ones
 * left out) filed into a segment of the follow-up's own, exactly once through the ledger, their
 * numbers reserved first (exempt from the cooldown, held to the caps of calling rules, counted as calls),
 * and the follow-up campaign to ask for, no earlier than the job's spacing after the first one ended.
 */
export async function followUpOf(
  def: JobDefinition,
  campaignId: string,
  owner: string,
  d: FollowUpDeps,
): Promise<FollowUpOutcome> {
  const stored = await d.store.get(campaignId);
  if (!stored || !def.followUps) return { kind: "none" };
  const again = () => recordsToCallAgain(def, campaignId, d);
  if (!(await anyOf(again()))) return { kind: "none" };

  const intent = followUpCampaign(def, stored.info, "", stored.lastChangeAt);
  const request = intent.request;
  let contacts = 0;
  const plannedAt = request.notBefore ?? d.now();
  // Reserved for the whole span it may dial in (no opening left: the processor won't make it).
  const [from, until] = reservationSpan(def, request, d.now()) ?? [plannedAt, plannedAt];
  const key = campaignKey(request);
  const granted = numberBudgetGate(def, request, d.budgets);
  // Reserved before it is filed: a number over a cap, or its pool number's budget spent, is not
  // called again (a retry finds it reserved and granted as before).
  async function* rows(): AsyncGenerator<ContactToImport> {
    for await (const batch of again()) {
      for (const r of batch) {
        const caps = capsFor(def, r.phone);
        const reserved = await d.frequency.reserve(r.phone, key, from, 0, caps, true, until);
        if (reserved === "ok" && (await granted(r.phone, from)))
          yield { phone: r.phone, index: contacts++, contact: contactOf(r) };
      }
    }
  }
  const { segmentId, counts } = await fileIntoOwnSegment(
    { name: request.name, description: `Follow-up ${request.attempt} of campaign ${campaignId}` },
    rows(),
    { owner, country: countryOf(def) },
    d,
  );
  // Every number refused meanwhile (listed, over a cap): no campaign for nobody.
  if (contacts === 0) return { kind: "none" };
  return {
    kind: "requested",
    intent: { ...intent, request: { ...request, segmentId } },
    contacts,
    created: counts.created,
    segmentId,
  };
}

/**
 * The records to call again, each phone once (HSCAN may repeat one), suppressed ones left out, in
 * batches: read from Redis as they are needed, never all at once.
 */
async function* recordsToCallAgain(
  def: JobDefinition,
  campaignId: string,
  d: Pick<FollowUpDeps, "store" | "suppression">,
): AsyncGenerator<ResultRecord[]> {
  const retry = new Set(def.polling.statuses.retry);
  const seen = new FingerprintIndex();
  let batch: ResultRecord[] = [];
  const callable = async () => {
    const suppressed = await d.suppression.which(batch.map((r) => r.phone));
    const out = batch.filter((r) => !suppressed.has(r.phone));
    batch = [];
    return out;
  };
  for await (const stored of d.store.allRecords(campaignId)) {
    // Records polled before phones were read as E.164 may hold the service's spelling.
    const r = { ...stored, phone: e164OfServicePhone(stored.phone, countryOf(def)) ?? stored.phone };
    if (!retry.has(r.status) || !seen.firstSight(r.phone)) continue;
    batch.push(r);
    if (batch.length >= BATCH) yield await callable();
  }
  yield await callable();
}

async function anyOf(batches: AsyncIterable<ResultRecord[]>): Promise<boolean> {
  for await (const batch of batches) if (batch.length > 0) return true;
  return false;
}

const contactOf = (r: ResultRecord) => ({
  phone: r.phone,
  ...(r.first_name ? { first_name: r.first_name } : {}),
  ...(r.last_name ? { last_name: r.last_name } : {}),
});
