/**
 * The results model: what sinks, the CLI and the dashboard read of campaigns. Types and the few
 * pure helpers that go with them; no I/O.
 */

/** What the worker keeps of one audience entry: the call's result for one contact. */
export interface ResultRecord {
  phone: string;
  first_name: string;
  last_name: string;
  status: string;
  durationSec: number;
  sentiment: string;
  transferred: boolean;
  meeting: boolean;
  messageSent: boolean;
  error: string;
  recordingUrl: string;
  transcript: string;
}

export interface CampaignInfo {
  id: string;
  name: string;
  job: string;
  file: string;
  /** Content hash and import generation of the file the campaign comes from. */
  sha256: string;
  gen: number;
  segmentId: string;
  scheduledAt: string;
  /** Why it starts then, when the hold after its create set it: "60 s after its create: VCW_SETTLE_MS". */
  startReason?: string;
  state: "active" | "finished" | "stuck";
  /** 0 for the first campaign of a file, n for its n-th follow-up. */
  attempt: number;
  /** The zone of its contacts, when the window is in the callee's zone. */
  zone?: string;
  /** Contacts it was made for. */
  audience?: number;
  followUps: string[];
  /** The campaign it follows up (a follow-up's): its id is in that campaign's `followUps`, as are its adopted copies'. */
  parentId?: string;
  /** Under calling rules (pipeline/calling): its label in its file, its contacts' region. */
  slot?: string;
  region?: string;
  /** When its window closes for all its contacts, less the margin (epoch ms): no call should start after. */
  callUntil?: number;
  /** When it should be done at the pace it was sized for (epoch ms). */
  expectedEndAt?: number;
  /** Its contacts' effective window (local hours per zone): follow-ups start inside it. */
  hours?: readonly {
    timezone: string;
    from: string;
    to: string;
    days?: readonly string[] | undefined;
    holidays?: string | undefined;
  }[];
  /** No call of it or its follow-ups at or after this (the job's callBy, epoch ms). */
  callBy?: number;
  /** The campaign whose contacts, taken out when its window closed, it calls (its identity, with the file's). */
  resumeOf?: string;
  /**
   * Its create was sent more than once (an answer lost, sent again once settled): an earlier copy
   * may land late, so its polls look for copies of its name (decision 0065). Absent: sent once.
   */
  resent?: true;
  /** The n-th fresh campaign made by a repair before the start (its identity, with the file's). */
  repair?: number;
  /** Its experiment variant (`campaign.variants`): every contact of it was given this one. */
  variant?: string;
  /** Its pool dialer (`campaign.dialers`): the resource's name or the id, and the number it calls from. */
  dialer?: string;
  dialerNumber?: string;
  /** When its number's budget was spent as planned: the budget period it waited for (its identity, with the dialer). */
  budgetFrom?: number;
}

/** The check before a campaign's start: what was listed and repaired, counted from the service's listings. */
export interface StartCheckResult {
  /** When it ran (ISO 8601). */
  at: string;
  /** Campaigns the service listed under its name (1 unless a late create made another). */
  campaignsListed: number;
  /** Contacts listed in its segment, and the distinct phones among them. */
  contactsListed: number;
  phonesListed: number;
  /** Extra copies of a phone deleted from the segment. */
  duplicatesRemoved: number;
  /** Contacts taken out because they opted out or were put on a do-not-call list since the import. */
  withdrawn: number;
  /** 1 when a second campaign of its name was found: both emptied, a fresh one made (`repairedInto`'s name). */
  campaignsRepaired: number;
  repairedInto?: string;
  /** Campaigns of its name that had started before the check. */
  startedBeforeCheck?: number;
  /**
   * Other copies of its name, already started, that vcw took on (polled, reported, counted): a
   * create applied late. Its own copy, not started, was emptied so each person is called once.
   */
  copiesAdopted?: number;
  /** Of those, the copies found after the check: right before the start or at a poll (late-copies.ts). */
  adoptedAfterCheck?: number;
  /** Phones in the segment when two copies had both started: each of them called twice. */
  calledTwice?: number;
  /**
   * Its own copy started while its segment was being emptied for a late copy: the people its
   * audience lists. It is polled and reported as it called them, asks for no follow-up (the late
   * copy had them all), and those the late copy called too are in `calledTwice`.
   */
  startedWhileEmptied?: number;
}

/** What sinks receive: one version of a campaign's results. */
export interface CampaignSummary {
  kind: "progress" | "final" | "stuck";
  version: number;
  campaign: CampaignInfo;
  contacts: number;
  callsByStatus: Record<string, number>;
  sentiment: Record<string, number>;
  duration: { totalSec: number; averageSec: number };
  meetingsScheduled: number;
  transfers: number;
  messagesSent: number;
  errors: { message: string; count: number }[];
  /** Share of contacts whose call is final, 0..1. */
  completion: number;
  /** The job was paused when this summary was made: it sends no contact and creates no campaign. */
  jobPaused?: boolean;
  /** Records whose status is in no list of the job's `polling.statuses`, by status. */
  unknownStatuses?: Record<string, number>;
  /** What the service's answers held that could not be read: the operator should know. */
  unreadable?: Unreadable;
  /** The audit trail's check (`vcw report CAMPAIGN`): contacts the service reported and their records, one each. */
  audit?: { calls: number; records: number };
  generatedAt: string;
}

/** Parts of a campaign's audience the service sent in a form that could not be read. */
export interface Unreadable {
  /** Field name -> entries in which it was unreadable (the rest of each entry was kept). */
  fields: Record<string, number>;
  /** Entries left out: not an object, or no phone to key them by. */
  entriesLeftOut: number;
  /** Phones listed more than once (counted once, the last entry kept). */
  duplicatePhones: number;
  /** Phones that could not be read as E.164 numbers: kept as written (docs/spec-gaps.md). */
  phonesNotNormalized?: number;
}

/** The kind of summary a campaign in `state` gets. */
export const kindOf = (state: CampaignInfo["state"]): CampaignSummary["kind"] =>
  state === "finished" ? "final" : state === "stuck" ? "stuck" : "progress";
