import { createHash } from "node:crypto";

/**
 * Every Redis key vcw uses, derived from one prefix, here and nowhere else. Keys that one
 * command, script or MULTI touches together share a hash tag (`{...}`), so they live on one slot of
 * a Redis Cluster; unrelated things get their own tags, so they spread over the masters.
 */
/** A name as a key holds it: 128 bits of its SHA-256, so the key says nothing of what it names. */
const nameDigest = (name: string) => createHash("sha256").update(name).digest("hex").slice(0, 32);

export function redisKeys(prefix: string) {
  const campaign = (id: string) => `${prefix}:campaign:{${id}}`;
  return {
    prefix,
    /** BullMQ's prefix for one queue: its own hash tag, so each queue may live on another master. */
    queue: (name: string) => `${prefix}:bull:{${name}}`,
    /** Contacts sent to one segment (the exactly-once ledger). */
    ledger: (segmentId: string) => `${prefix}:ledger:{${segmentId}}`,
    /** Per job, the content hash of every file admitted and what became of it. */
    files: (job: string) => `${prefix}:files:{${job}}`,
    /** A segment's id, remembered by a digest of its name (a file's name may name a person); its lock beside it. */
    segmentMemo: (name: string) => `${prefix}:segment-id:{${nameDigest(name)}}`,
    /** The same as vcw wrote it before issue 42, the name itself in it: read (a rolling deploy), never written. */
    legacySegmentMemo: (name: string) => `${prefix}:segment-id:{${name}}`,
    /** The id of the campaign made for one file (and attempt). */
    campaignMemo: (key: string) => `${prefix}:campaign-for:{${key}}`,
    lockOf: (key: string) => `${key}:lock`,
    /** The check before a campaign's start (by its identity): what it found; `:keep`, the contacts a repair files again. */
    startCheck: (key: string) => `${prefix}:start-check:{${key}}`,
    keepOf: (key: string) => `${key}:keep`,
    /** One writer at a time of a settled file's summary (the checks before its campaigns' starts). */
    summaryOf: (job: string, sha256: string) => `${prefix}:summary:{${job}:${sha256}}`,
    /** A create of the record remembered at `memo` was sent (and when): look it up before another. */
    sentOf: (memo: string) => `${memo}:sent`,
    campaign: {
      meta: campaign,
      fingerprints: (id: string) => `${campaign(id)}:fp`,
      results: (id: string) => `${campaign(id)}:results`,
      events: (id: string) => `${campaign(id)}:events`,
      /** Changed records of a poll too large to keep in memory, until they are written. */
      staged: (id: string) => `${campaign(id)}:staged`,
      pollLock: (id: string) => `${campaign(id)}:poll-lock`,
      /** Contacts taken out of a started campaign (window closed, opt-out, `vcw stop`), by phone. */
      withdrawn: (id: string) => `${campaign(id)}:withdrawn`,
      /** One stop of a campaign at a time (the poll, `vcw stop`, a second worker). */
      stopLock: (id: string) => `${campaign(id)}:stop-lock`,
      /** The trace context the campaign was created in (only with traces on): its polls join that trace. */
      trace: (id: string) => `${campaign(id)}:trace`,
    },
    /**
     * Every job that has had a campaign registered: how a job whose file is loaded nowhere any more
     * is still found (its campaigns shown, and warned of while nobody polls them).
     */
    jobsWithCampaigns: `${prefix}:jobs-with-campaigns`,
    /** Campaigns of a job: all, and those still polled. */
    campaignsOf: (job: string) => `${prefix}:campaigns:{${job}}:all`,
    activeCampaignsOf: (job: string) => `${prefix}:campaigns:{${job}}:active`,
    /** Campaigns of a job that vcw stopped (window closed, opt-out, `vcw stop`), by when (epoch ms). */
    stoppedCampaignsOf: (job: string) => `${prefix}:campaigns:{${job}}:stopped`,
    /** Active campaigns of a job by when each is next polled (epoch ms); a tick takes those due. */
    dueCampaignsOf: (job: string) => `${prefix}:campaigns:{${job}}:due`,
    /** How far behind the last poll tick of a job was (the scheduler's own report). */
    pollLagOf: (job: string) => `${prefix}:campaigns:{${job}}:poll-lag`,
    /** The last tick a job's scheduled report `report` was sent for: missed ticks are sent at the next start. */
    reportLastRun: (job: string, report: number) => `${prefix}:campaigns:{${job}}:report:${report}:last`,
    /** One number's call history: when it was last called, by which campaign, and how it went. */
    calls: (phone: string) => `${prefix}:calls:{${phone}}`,
    /** One number's calls by campaign (a sorted set by planned time), for the frequency caps: its tag is calls(phone)'s. */
    callTimes: (phone: string) => `${prefix}:calls:{${phone}}:times`,
    /** A job's experiment decisions (`campaign.variants`): variant -> its stop or promotion, as JSON. */
    experiment: (job: string) => `${prefix}:experiment:{${job}}`,
    /** The guardrail's last look at a job's experiment: one look per few seconds across workers. */
    experimentChecked: (job: string) => `${prefix}:experiment:{${job}}:checked`,
    /** An experiment's people: number -> the variant it was first given, so it keeps it (issue 41). */
    experimentPeople: (job: string) => `${prefix}:experiment:{${job}}:people`,
    /** An experiment's assignments: campaign key -> its variant, contacts assigned and set aside, as JSON. */
    experimentAssigned: (job: string) => `${prefix}:experiment:{${job}}:assigned`,
    /** A dialer number's calls granted in one UTC day or hour ("2026-11-29", "2026-11-29T14"): `used`, and each grant by its field. */
    dialerBudget: (number: string, bucket: string) => `${prefix}:dialer-budget:{${number}}:${bucket}`,
    /** A pool number resting after its answer rate fell well below its pool's: its figures, expiring when the rest ends. */
    dialerRest: (number: string) => `${prefix}:dialer-budget:{${number}}:rest`,
    /** The pace learned of one dialer: calls ending per minute while its campaigns run. */
    pace: (dialer: string) => `${prefix}:pace:{${dialer}}`,
    /** The calling plan made once for one imported file (its identity), reused by a retry. */
    callingPlan: (file: string) => `${prefix}:plan:{${file}}`,
    /** The valid rows of one imported file (its identity), read once at import for its plan and campaigns. */
    fileRows: (file: string) => `${prefix}:file-rows:{${file}}`,
    /** Jobs paused by the operator, and campaigns canceled before they were created. */
    paused: `${prefix}:paused`,
    canceled: `${prefix}:canceled`,
    /** Phones that opted out. */
    suppressed: `${prefix}:suppressed`,
    /** One number's consent and revocation, by a digest of the number (the key never holds it whole). */
    consent: (phone: string) => `${prefix}:consent:{${nameDigest(`${prefix}:${phone}`)}}`,
    /** The audit trail: one entry per contact decided (called or refused), append-only, its own retention. */
    audit: `${prefix}:audit:{log}`,
    /** What one scope (a campaign, a file) has in the audit trail: item (a number, a row) -> its entry id. */
    auditSeen: (scope: string) => `${prefix}:audit:{log}:seen:${scope}`,
    /** The request rate shared by every worker. */
    limiter: `${prefix}:limit:{service}`,
    /** Daemon processes running now, with where their HTTP surface is (refreshed while they run). */
    daemons: `${prefix}:daemons`,
    /** The daemons watching one inbox (by a hash of its path), with the job each watches it for. */
    inboxClaim: (pathHash: string) => `${prefix}:inbox:{${pathHash}}`,
    /** The one worker taking an upload of a bucket inbox in (by a hash of its address, key and ETag): a lease. */
    objectClaim: (uploadHash: string) => `${prefix}:object:{${uploadHash}}`,
    /** A SCAN pattern matching every key of this prefix (a one-off run forgets what it wrote). */
    everything: `${prefix}:*`,
    /** Done once per deployment: a data migration that ran to its end. */
    migration: (name: string) => `${prefix}:migrated:${name}`,
    /** A dashboard session signed out before it expired (kept until it would have). */
    revokedSession: (id: string) => `${prefix}:http:revoked:{${id}}`,
    /** Attempts to present the dashboard's token one way from one client address, and its wait (every daemon reads it). */
    tokenAttempts: (way: TokenWay, client: string) => `${prefix}:http:${way}:{${client}}`,
    /** Resources as code: what was applied (`kind/name` -> JSON), and the lock of `vcw apply`. */
    resources: `${prefix}:resources:{state}`,
    resourcesLock: `${prefix}:resources:{state}:lock`,
    /** Which assistant version each campaign (by its key) was made with, until it ends. */
    resourceUses: `${prefix}:resources:{uses}`,
    /** A job's test call of one day (taken once), and the last test call of each job. */
    preflightDay: (job: string, day: string) => `${prefix}:preflight:{${job}}:${day}`,
    preflights: `${prefix}:preflights`,
    /** A marker of this deployment's data: gone means Redis lost its data (restarted without persistence). */
    epoch: `${prefix}:epoch`,
    /**
     * Do-not-call lists (vcw suppress import): each source's version in force and its facts (one
     * hash), versions being loaded or retired (to delete), and one lock per source.
     */
    dncLists: `${prefix}:dnc:{lists}`,
    dncLoading: `${prefix}:dnc:{lists}:loading`,
    dncRetired: `${prefix}:dnc:{lists}:retired`,
    dncLock: (source: string) => `${prefix}:dnc:{lists}:lock:${source}`,
    /**
     * One block of 10,000 numbers of a list's version, tagged by the block's first digits (10^7
     * numbers, a NANP area code, a tag) so a large list spreads over a Cluster's masters.
     */
    dncBlock: (version: string, tag: string, block: string) => `${prefix}:dnc:{${version}:${tag}}:${block}`,
    /** A version's blocks (`tag:block`), to delete them; present while the version is readable. */
    dncBlocks: (version: string) => `${prefix}:dnc:{${version}}:blocks`,
    /** The same index once the version is retired: its blocks are being deleted. */
    dncRetiredBlocks: (version: string) => `${prefix}:dnc:{${version}}:retired`,
  };
}

export type RedisKeys = ReturnType<typeof redisKeys>;

/** The ways the operator's token is presented, each throttled apart: a sign-in at /login, a bearer header. */
export type TokenWay = "sign-in" | "bearer";
