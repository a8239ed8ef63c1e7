import type { JobDefinition } from "../../config/job-definition.ts";
import { zoneOf } from "../../config/job-zone.ts";
import { DEFAULT_REACHED } from "../../config/service-profile.ts";
import { counted } from "../../lib/plural.ts";
import { visible } from "../../lib/visible-text.ts";
import { zonedTime, zonedWallClock } from "../../lib/zoned-time.ts";
import type { StoredCampaign } from "../stores/campaign-store.ts";
import { campaignReach, reachedClause, reachOf } from "./reach.ts";
import { num } from "./words.ts";

export const CAMPAIGN_STATES = ["active", "waiting", "finished", "stuck"] as const;
export type ListedState = (typeof CAMPAIGN_STATES)[number];

/** One line of `vcw campaigns`. */
export interface CampaignListing {
  id: string;
  name: string;
  job: string;
  zone: string;
  /** Its planned start, as the local date and time in its zone, and the instant. */
  scheduledStart: { local: string; zone: string; at: string };
  /** waiting: active, but its start (the calling window) is still to come. */
  state: ListedState;
  contacts: number;
  done: number;
  reached: number;
  meetings: number;
  /** Copies of its name another create made, taken on by its check or a later look (decisions 0062, 0065). */
  copiesAdopted?: number;
  /** Calls made twice: a copy had started with the same people. */
  calledTwice?: number;
}

/** Whether a campaign waits for its start at `now`: active, its start (its calling window) still to come. Pure. */
export function waitsAt(info: Pick<StoredCampaign["info"], "state" | "scheduledAt">, now: number): boolean {
  const at = Date.parse(info.scheduledAt);
  return info.state === "active" && !Number.isNaN(at) && at > now;
}

/** A kept campaign as `vcw campaigns` lists it. Pure. */
export function campaignListing(
  s: StoredCampaign,
  def: JobDefinition | undefined,
  now: number,
): CampaignListing {
  const zone = zoneOf(def, s.info.zone);
  const at = Date.parse(s.info.scheduledAt);
  const start = Number.isNaN(at) ? now : at;
  const waiting = waitsAt(s.info, now);
  const reached = def?.polling.statuses.reached ?? DEFAULT_REACHED;
  const contacts = s.totals.contacts || s.info.audience || 0;
  return {
    id: s.info.id,
    name: s.info.name,
    job: s.info.job,
    zone,
    scheduledStart: { local: zonedWallClock(start, zone), zone, at: new Date(start).toISOString() },
    state: waiting ? "waiting" : s.info.state,
    contacts,
    done: s.totals.final,
    reached: campaignReach(s.totals.byStatus, contacts, reached).reached,
    meetings: s.totals.meetings,
    ...(s.startCheck?.copiesAdopted ? { copiesAdopted: s.startCheck.copiesAdopted } : {}),
    ...(s.startCheck?.calledTwice ? { calledTwice: s.startCheck.calledTwice } : {}),
  };
}

/**
 * Late copies taken on and the calls made twice, as `vcw campaigns` and the dashboard's repair badge
 * say them: "1 late copy taken on, 20 calls made twice"; "" when there were none. Pure.
 */
export const lateCopiesText = (c: { copiesAdopted?: number | undefined; calledTwice?: number | undefined }) =>
  [
    c.copiesAdopted ? `${counted(c.copiesAdopted, "late copy")} taken on` : "",
    c.calledTwice ? `${counted(c.calledTwice, "call")} made twice` : "",
  ]
    .filter(Boolean)
    .join(", ");

/** How a listing reads on one line: "waiting until 2026-11-24 08:00 PST (America/Los_Angeles)". */
export function listingLine(c: CampaignListing): string {
  const start = `${zonedTime(c.scheduledStart.at, c.zone)} (${c.zone})`;
  const state = c.state === "waiting" ? `waiting until ${start}` : `${c.state}, started ${start}`;
  const lateText = lateCopiesText(c);
  const late = lateText ? `, ${lateText}` : "";
  return `${visible(c.id)}  ${visible(c.name)}  [${visible(state)}]  ${counted(c.contacts, "contact")}, ${num(c.done)} done, ${reachedClause(reachOf(c.reached, c.contacts, "contact"))}, ${counted(c.meetings, "meeting")}${late}`;
}
