import { randomBytes } from "node:crypto";
import type { Client } from "../../../api/client.ts";
import { countryOf } from "../../../config/ingest-options.ts";
import type { JobDefinition } from "../../../config/job-definition.ts";
import { type HoursConstraint, openIntervals } from "../../calling/calling-hours.ts";
import { capsFor, jobWindowOf } from "../../calling/plan-settings.ts";
import type { ContactToImport } from "../../contacts/import-contacts.ts";
import type { CampaignInfo } from "../../model/results.ts";
import type { CallFrequency } from "../../stores/call-frequency.ts";
import type { ContactLedger } from "../../stores/contact-ledger.ts";
import type { CreateMemo } from "../../stores/create-memo.ts";
import type { DialerBudgets } from "../../stores/dialer-budget.ts";
import type { StopStore, WithdrawnContact } from "../../stores/stop-store.ts";
import type { SuppressionList } from "../../stores/suppression.ts";
import { type CampaignRequest, campaignKey, dialerOf } from "../lifecycle.ts";
import { numberBudgetGate } from "../number-budget-gate.ts";
import { fileIntoOwnSegment } from "../own-segment.ts";
import { reservationSpan } from "../reservation-span.ts";
import { resumeAt, windowIn } from "./window-close.ts";

export interface HandBackDeps {
  client: Client;
  /** The hand-back segment's create, once. */
  memo: Pick<CreateMemo, "segment">;
  leaseMs: number;
  /** The exactly-once ledger of contacts (built once, daemon/services.ts). */
  ledger: ContactLedger;
  suppression: SuppressionList;
  /** Reservations: the hand-back's held to the caps, the first campaign's taken back. */
  frequency: Pick<CallFrequency, "reserve" | "release">;
  stops: StopStore;
  /** A pool number's budget (`campaign.dialers.perNumber`): a hand-back's calls count against it. */
  budgets?: Pick<DialerBudgets, "grant"> | undefined;
}

/** A hand-back: the campaign to ask for, and how many contacts its segment holds. */
export interface HandedBack {
  request: CampaignRequest;
  contacts: number;
}

/**
 * The campaign that calls, at the next opening, the contacts a window close took out of `info`
 * and the service never dialled: filed into a segment of their own (created once, by name; the
 * contacts through the ledger) and reserved under the new campaign's key for the span it may dial
 * in, held to the caps (one over a cap then is not handed back), the first campaign's reservation
 * taken back. It keeps the first campaign's rules: its contacts' window
 * (`hours`: every zone, the rule sets' hours and the job's) and callBy, so the campaign processor
 * starts it at their next opening and stops it before they close; a campaign made without calling
 * rules resumes at the job window's next opening. Opted-out numbers stay out. Repeatable: a crash
 * or retry mid-way makes the same segment, contacts and request again, none twice.
 */
export async function handBack(
  def: JobDefinition,
  info: CampaignInfo,
  waiting: readonly WithdrawnContact[],
  d: HandBackDeps,
  now: number,
): Promise<HandedBack | undefined> {
  const stop = await d.stops.get(info.id);
  if (!stop?.handBack) return undefined;
  const closed = waiting.filter((c) => c.reason === "window-closed");
  const suppressed = await d.suppression.which(closed.map((c) => c.phone));
  const callable = closed.filter((c) => !suppressed.has(c.phone));
  if (callable.length === 0) return undefined;
  const hours = info.hours as readonly HoursConstraint[] | undefined;
  const notBefore = resumeOpening(def, info, hours, stop.at) ?? now;
  // Named by the day it resumes: a campaign resumed again the next day gets a segment of its own.
  const base = info.name.replace(/ resumed \d{4}-\d{2}-\d{2}$/, "");
  const request: CampaignRequest = {
    job: info.job,
    sha256: info.sha256,
    gen: info.gen,
    original: info.file,
    segmentId: "",
    attempt: info.attempt,
    name: `${base} resumed ${new Date(notBefore).toISOString().slice(0, 10)}`,
    ...(info.zone ? { zone: info.zone } : {}),
    ...(info.variant ? { variant: info.variant } : {}),
    ...dialerOf(info),
    ...(info.region ? { region: info.region } : {}),
    ...(hours ? { hours } : {}),
    ...(info.callBy !== undefined ? { callBy: info.callBy } : {}),
    notBefore,
    resumeOf: info.id,
  };
  const key = campaignKey(request);
  const [from, until] = reservationSpan(def, request, now) ?? [notBefore, notBefore];
  const moved: WithdrawnContact[] = [];
  const granted = numberBudgetGate(def, request, d.budgets);
  for (const c of callable) {
    // Moved: the first campaign's call undone (it never dialled), then held to the caps in the
    // span it may now be dialled in, and granted by its pool number's budget in that period.
    await d.frequency.release(c.phone, campaignKey(info));
    const caps = capsFor(def, c.phone, info.region);
    if ((await d.frequency.reserve(c.phone, key, from, 0, caps, true, until)) !== "ok") continue;
    if (await granted(c.phone, from)) moved.push(c);
  }
  if (moved.length === 0) return undefined;
  const { segmentId } = await fileIntoOwnSegment(
    {
      name: request.name,
      description: `Contacts of campaign ${info.id} not called before its window closed`,
    },
    rowsOf(moved),
    { owner: `resume-${key}-${randomBytes(4).toString("hex")}`, country: countryOf(def) },
    d,
  );
  await d.stops.set(info.id, { ...stop, handedBackTo: request.name });
  return { request: { ...request, segmentId }, contacts: moved.length };
}

/**
 * The next opening after the one that was open when the window closed at `stoppedAt`: of the
 * campaign's own hours (calling rules), else of the job's window in its zone.
 */
function resumeOpening(
  def: JobDefinition,
  info: CampaignInfo,
  hours: readonly HoursConstraint[] | undefined,
  stoppedAt: number,
): number | undefined {
  if (hours && hours.length > 0) {
    const openings = openIntervals(hours, stoppedAt, stoppedAt + 14 * 86_400_000);
    return openings.find(([opens]) => opens > stoppedAt)?.[0];
  }
  const window = windowIn(def.campaign?.start, info.zone ?? jobWindowOf(def).fallback);
  return window && resumeAt(window, stoppedAt);
}

async function* rowsOf(contacts: readonly WithdrawnContact[]): AsyncGenerator<ContactToImport> {
  for (const [index, c] of contacts.entries()) yield { phone: c.phone, contact: c.contact, index };
}
