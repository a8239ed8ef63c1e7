import type { JobDefinition } from "../config/job-definition.ts";
import { zoneOf } from "../config/job-zone.ts";
import { DEFAULT_REACHED } from "../config/service-profile.ts";
import { maskPhonesIn } from "../lib/mask-phone.ts";
import { addTo, newTally, type Tally } from "../lib/tally.ts";
import { instantOf, wallClock } from "../lib/time-zone.ts";
import { lateCopiesText } from "../pipeline/reports/campaign-list.ts";
import { campaignReach } from "../pipeline/reports/reach.ts";
import type { StoredCampaign } from "../pipeline/stores/campaign-store.ts";

/** What the campaigns view says a campaign is doing: one before its start waits, it does not "run". */
export type Phase = "waiting" | "calling" | "past-window" | "finished" | "stuck";
export const PHASES: readonly Phase[] = ["waiting", "calling", "past-window", "finished", "stuck"];

/** One campaign as the campaigns view lists it. Pure data: phones are not in it. */
export interface CampaignRow {
  id: string;
  name: string;
  job: string;
  file: string;
  zone: string;
  scheduledAt: string;
  /** Why it starts then, when vcw held it after its create (CampaignInfo.startReason). */
  startReason?: string;
  phase: Phase;
  attempt: number;
  contacts: number;
  final: number;
  byStatus: Record<string, number>;
  meetings: number;
  transfers: number;
  /** Contacts reached, and the sentence every output uses ("2 of 6 contacts (33.3%)": `reach.ts`). */
  reached: number;
  reach: string;
  createdAt: number;
  endedAt: number;
  /**
   * What the check before its start repaired (issue 28), and the late copies of it taken on by the
   * check or the looks after it (decisions 0062, 0065); absent when there was neither.
   */
  repaired?: {
    duplicatesRemoved: number;
    withdrawn: number;
    campaignsRepaired: number;
    repairedInto?: string;
    /** Copies of its name another create made, taken on; the calls made twice (both copies started). */
    copiesAdopted?: number;
    calledTwice?: number;
    /** Both, as `vcw campaigns` says them: "1 late copy taken on, 20 calls made twice". */
    lateCopies?: string;
  };
}

export interface CampaignQuery {
  job?: string | undefined;
  phase?: Phase | undefined;
  zone?: string | undefined;
  /** Scheduled start on or after / before these days (YYYY-MM-DD, in UTC). */
  from?: string | undefined;
  to?: string | undefined;
  page: number;
  per: number;
}

/** The job's calling window, if its campaigns start in one. */
function windowOf(def: JobDefinition | undefined): { to: string; timezone: string } | undefined {
  const start = def?.campaign?.start;
  return typeof start === "object" && "window" in start ? start.window : undefined;
}

/**
 * When the window a campaign started in closes: its closing time (`to`) on the day of its start,
 * in the campaign's zone. Calls still not final after it go on only if the service keeps them.
 */
export function windowCloses(scheduledAt: string, to: string, zone: string): number {
  const wall = wallClock(Date.parse(scheduledAt), zone);
  const [h, m] = to.split(":").map(Number);
  return instantOf(wall - (wall % 86_400_000) + (h! * 60 + m!) * 60_000, zone);
}

export function phaseOf(c: StoredCampaign, now: number, def?: JobDefinition): Phase {
  if (c.info.state !== "active") return c.info.state;
  if (Date.parse(c.info.scheduledAt) > now) return "waiting";
  const window = windowOf(def);
  if (window && now >= windowCloses(c.info.scheduledAt, window.to, zoneOf(def, c.info.zone)))
    return "past-window";
  return "calling";
}

export function toRow(c: StoredCampaign, def: JobDefinition | undefined, now: number): CampaignRow {
  return {
    id: c.info.id,
    name: c.info.name,
    job: c.info.job,
    file: c.info.file,
    zone: zoneOf(def, c.info.zone),
    scheduledAt: c.info.scheduledAt,
    ...(c.info.startReason ? { startReason: c.info.startReason } : {}),
    phase: phaseOf(c, now, def),
    attempt: c.info.attempt,
    contacts: c.totals.contacts,
    final: c.totals.final,
    byStatus: c.totals.byStatus,
    meetings: c.totals.meetings,
    transfers: c.totals.transfers,
    ...campaignReach(c.totals.byStatus, c.totals.contacts, def?.polling.statuses.reached ?? DEFAULT_REACHED),
    createdAt: c.createdAt,
    endedAt: c.endedAt,
    ...repairedOf(c),
  };
}

/** The row's repair badge: only when the check before the start changed something or a late copy was taken on. */
function repairedOf(c: StoredCampaign): Pick<CampaignRow, "repaired"> {
  const k = c.startCheck;
  const late = k ? lateCopiesText(k) : "";
  if (!k || (k.duplicatesRemoved + k.withdrawn + k.campaignsRepaired === 0 && !late)) return {};
  const { duplicatesRemoved, withdrawn, campaignsRepaired, repairedInto, copiesAdopted, calledTwice } = k;
  return {
    repaired: {
      duplicatesRemoved,
      withdrawn,
      campaignsRepaired,
      ...(repairedInto ? { repairedInto } : {}),
      ...(copiesAdopted ? { copiesAdopted } : {}),
      ...(calledTwice ? { calledTwice } : {}),
      ...(late ? { lateCopies: late } : {}),
    },
  };
}

/** A row as the pages show it: names hold what the operator put in file names, a phone perhaps, masked. */
export const maskedRow = (r: CampaignRow): CampaignRow => ({
  ...r,
  name: maskPhonesIn(r.name),
  file: maskPhonesIn(r.file),
  ...(r.repaired?.repairedInto
    ? { repaired: { ...r.repaired, repairedInto: maskPhonesIn(r.repaired.repairedInto) } }
    : {}),
});

/** The page of rows a query asks for, newest scheduled start first, and how many match in all. */
export function queryRows(
  rows: readonly CampaignRow[],
  q: CampaignQuery,
): { total: number; rows: CampaignRow[] } {
  const day = (iso: string) => iso.slice(0, 10);
  const matching = rows.filter(
    (r) =>
      (!q.job || r.job === q.job) &&
      (!q.phase || r.phase === q.phase) &&
      (!q.zone || r.zone === q.zone) &&
      (!q.from || day(r.scheduledAt) >= q.from) &&
      (!q.to || day(r.scheduledAt) <= q.to),
  );
  matching.sort((a, b) => b.scheduledAt.localeCompare(a.scheduledAt) || b.createdAt - a.createdAt);
  const start = (q.page - 1) * q.per;
  return { total: matching.length, rows: matching.slice(start, start + q.per) };
}

/** Status changes over time: per poll that changed something, how many calls reached each status. */
export function timeline(
  transitions: readonly { to: string; at: number }[],
): { at: number; to: Record<string, number> }[] {
  const byPoll = new Map<number, Tally>();
  for (const t of transitions) {
    const counts = byPoll.get(t.at) ?? newTally();
    addTo(counts, t.to);
    byPoll.set(t.at, counts);
  }
  return [...byPoll.entries()].sort((a, b) => a[0] - b[0]).map(([at, to]) => ({ at, to }));
}
