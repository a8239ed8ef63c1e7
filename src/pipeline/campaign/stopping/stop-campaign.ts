import type { CountryCode } from "libphonenumber-js/max";
import type { Client } from "../../../api/client.ts";
import type { SendFence } from "../../../api/send-fence.ts";
import { e164OfServicePhone } from "../../../lib/phone-e164.ts";
import type { AuditLog } from "../../stores/audit-log.ts";
import type { CampaignStore } from "../../stores/campaign-store.ts";
import type { CampaignStop, StopReason, StopStore, WithdrawnContact } from "../../stores/stop-store.ts";
import { auditTakenOut } from "../call-audit.ts";
import { contactOf, deleteContacts, heldFence } from "../segment-listing.ts";
import { type DialStatuses, undialled } from "./stop-selection.ts";

export interface StopDeps {
  client: Client;
  store: CampaignStore;
  stops: StopStore;
  /** The job's country: phones the service lists without a country code are read in it. */
  country?: CountryCode | undefined;
  /** The audit trail: each contact taken out, and why (absent: no trail, a test's). */
  audit?: Pick<AuditLog, "append"> | undefined;
}

export interface StopRequest {
  reason: StopReason;
  /** Only these phones (an opt-out, a cap reached); every contact not dialled yet when absent. */
  phones?: ReadonlySet<string>;
  /** The segment is the campaign's own (audience `file`): its contacts are deleted. Else flagged only. */
  ownSegment: boolean;
  /** Call the contacts taken out at the next opening (a window close); `vcw stop` says no. */
  handBack: boolean;
  statuses: DialStatuses;
  now: number;
}

export interface StopResult {
  state: "stopped" | "ended" | "unknown";
  /** Contacts taken out by this stop (deleted, or flagged in a standing segment). */
  taken: number;
  stop?: CampaignStop;
}

/**
 * Takes the contacts a started campaign has not dialled yet out of its own segment
 * (`contacts.delete`, one by one: the spec has no bulk delete), remembering each first, so a crash
 * or retry mid-way loses none and deletes none twice (a deleted contact is no longer listed; a
 * 404 means an earlier attempt deleted it). A standing segment (audience `segment`) is never
 * touched: its contacts are only flagged. One stop at a time per campaign.
 */
export async function stopCampaign(campaignId: string, r: StopRequest, d: StopDeps): Promise<StopResult> {
  const locked = await d.stops.exclusive(campaignId, (held) =>
    stopLocked(campaignId, r, heldFence(`the stop of campaign ${campaignId}`, held), d),
  );
  return locked.acquired ? locked.value : { state: "unknown", taken: 0 };
}

async function stopLocked(
  campaignId: string,
  r: StopRequest,
  fence: SendFence,
  d: StopDeps,
): Promise<StopResult> {
  const stored = await d.store.get(campaignId);
  if (!stored) return { state: "unknown", taken: 0 };
  const before = await d.stops.get(campaignId);
  if (stored.info.state !== "active")
    return { state: "ended", taken: 0, ...(before ? { stop: before } : {}) };
  const listed = await d.client.contacts.list(stored.info.segmentId);
  const contacts = listed.flatMap((c) => {
    const phone = c.phone ? (e164OfServicePhone(c.phone, d.country) ?? c.phone) : undefined;
    return phone && c.id && (!r.phones || r.phones.has(phone)) ? [{ phone, listed: c }] : [];
  });
  const records = await d.store.records(
    campaignId,
    contacts.map((c) => c.phone),
  );
  const taken: WithdrawnContact[] = undialled(contacts, records, r.statuses).map((c) => ({
    phone: c.phone,
    contactId: r.ownSegment ? c.listed.id! : "",
    contact: contactOf(c.phone, c.listed),
    reason: r.reason,
    at: r.now,
  }));
  await d.stops.track(campaignId, taken);
  // Only what is deleted is a refusal: a standing segment's flagged contact stays and may be dialled.
  if (r.ownSegment) await auditTakenOut(d.audit, stored.info, taken);
  if (r.ownSegment)
    await deleteContacts(
      d.client,
      taken.map((c) => c.contactId),
      fence,
    );
  const stop = await d.stops.record(campaignId, stored.info.job, mergeStop(before, r));
  return { state: "stopped", taken: taken.length, stop };
}

/** The stop record after this stop: counts come from what is tracked, so a retry counts nothing twice. */
function mergeStop(before: CampaignStop | undefined, r: StopRequest) {
  return (tracked: number): CampaignStop => ({
    reason: before?.reason ?? r.reason,
    at: before?.at ?? r.now,
    reasons: [...new Set([...(before?.reasons ?? []), r.reason])],
    withdrawn: r.ownSegment ? tracked : 0,
    flagged: r.ownSegment ? 0 : tracked,
    calledAfter: before?.calledAfter ?? 0,
    honoured: r.ownSegment ? (before?.honoured === "no" ? "no" : "pending") : "n/a",
    ranPastWindow: before?.ranPastWindow ?? false,
    // `vcw stop` ends any hand-back; an opt-out or cap leaves the window's decision as it was.
    handBack: r.reason === "operator" ? false : r.handBack || (before?.handBack ?? false),
    ...(before?.handedBackTo ? { handedBackTo: before.handedBackTo } : {}),
  });
}
