import { downloadsDir, retentionMsOf, type Settings } from "../config/settings.ts";
import { createFileRegistry } from "../inbox/file-registry.ts";
import { createInboxStores, type InboxStoresOptions } from "../inbox/inbox-stores.ts";
import type { RedisClient } from "../lib/redis.ts";
import type { RedisKeys } from "../lib/redis-keys.ts";
import { createCampaignTraces } from "../telemetry/campaign-trace.ts";
import { createAuditLog } from "./stores/audit-log.ts";
import { createCallFrequency } from "./stores/call-frequency.ts";
import { createCallHistory } from "./stores/call-history.ts";
import { createCampaignStore } from "./stores/campaign-store.ts";
import { createConsentStore } from "./stores/consent-store.ts";
import { createContactLedger } from "./stores/contact-ledger.ts";
import { createControls } from "./stores/controls.ts";
import { createCreateMemo } from "./stores/create-memo.ts";
import { createPresenceStore } from "./stores/daemon-presence.ts";
import { createDialerBudgets } from "./stores/dialer-budget.ts";
import type { DoNotCallList } from "./stores/dnc/list-facts.ts";
import { type LoadListOptions, loadDoNotCallList } from "./stores/dnc/load-list.ts";
import { createExperimentStore } from "./stores/experiment-store.ts";
import { createFileRowsStore } from "./stores/file-rows.ts";
import { createNumberRests } from "./stores/number-rests.ts";
import { createPaceStore } from "./stores/pace-store.ts";
import { createPlanStore } from "./stores/plan-store.ts";
import { createReportRuns } from "./stores/report-runs.ts";
import { createResourceState } from "./stores/resource-state.ts";
import { revokedSessions } from "./stores/revoked-sessions.ts";
import { signInThrottle, type ThrottleOptions } from "./stores/sign-in-throttle.ts";
import { createStartCheckStore } from "./stores/start-check-store.ts";
import { createStopStore } from "./stores/stop-store.ts";
import { createSuppressionList } from "./stores/suppression.ts";

export interface StoreOptions {
  /** How long what vcw keeps lives after its use (VCW_RETENTION_DAYS). */
  retentionMs: number;
  /** How long a number's calls are kept: past the longest cooldown of any job. */
  keepCallsMs: number;
  /** Ledger lease: longer than any request can stay in flight. */
  leaseMs: number;
  /** How long a create whose answer was lost may still land (0 with idempotency keys). */
  settleMs: number;
  /** How long a start check's or stop's lock outlives a holder that stopped (VCW_LOCK_MS, as a job's). */
  lockMs?: number;
  /** Bucket inboxes: where they are, where their objects are read, how long an admitter's lease holds. */
  inboxes: Omit<InboxStoresOptions, "redis" | "keys">;
  /** An expired do-not-call list still suppresses; told when an import consults it. */
  onExpiredList?: (list: DoNotCallList) => void;
}

/**
 * Every store vcw keeps in Redis, each built once: the one place that hands Redis to them. The
 * daemon's workers, `vcw import` and the resource commands take what they use from here.
 */
export function openStores(redis: RedisClient, keys: RedisKeys, o: StoreOptions) {
  const { retentionMs } = o;
  return {
    /** Imported contents per job: admitted, importing, done, rejected. */
    registry: createFileRegistry(redis, keys),
    /** Each job's inbox, a drop folder or a bucket prefix, by its `inbox`. */
    inboxes: createInboxStores({ redis, keys, ...o.inboxes }),
    /** The exactly-once ledger of contacts: the one instance every step files contacts through. */
    ledger: createContactLedger(redis, { keys, leaseMs: o.leaseMs, settleMs: o.settleMs, retentionMs }),
    /** What vcw creates once (campaigns, segments): ids, sent marks, locks. */
    memo: createCreateMemo(redis, keys, { retentionMs }),
    /** The campaigns vcw tracks: registry and schedule, results, report marks. */
    store: createCampaignStore(redis, keys, { retentionMs }),
    /** Each scheduled report's last-run mark. */
    reportRuns: createReportRuns(redis, keys),
    suppression: createSuppressionList(redis, keys, o.onExpiredList ? { onExpired: o.onExpiredList } : {}),
    /** `vcw suppress load`: one do-not-call list's extract, loaded as a new version. */
    loadDoNotCall: (lines: Parameters<typeof loadDoNotCallList>[2], lo: LoadListOptions) =>
      loadDoNotCallList(redis, keys, lines, lo),
    history: createCallHistory(redis, keys, { keepMs: o.keepCallsMs }),
    /** Consent and revocations per number, across jobs (never expire: decision 0067). */
    consent: createConsentStore(redis, keys),
    /** The audit trail: every contact decided, called or refused (its own retention: decision 0067). */
    audit: createAuditLog(redis, keys),
    /** Calls per number for the frequency caps, beside the history (calling rules). */
    frequency: createCallFrequency(redis, keys, { keepMs: o.keepCallsMs }),
    /** Calls per dialer number per day and hour: a pool's budgets (`campaign.dialers.perNumber`). */
    budgets: createDialerBudgets(redis, keys),
    /** Pool numbers resting after their answer rate fell well below their pool's. */
    rests: createNumberRests(redis, keys),
    /** The pace learned of each dialer from polls. */
    pace: createPaceStore(redis, keys),
    /** The valid rows each import kept (read once, at import), for its campaigns. */
    fileRows: createFileRowsStore(redis, keys),
    plans: createPlanStore(redis, keys),
    experiments: createExperimentStore(redis, keys, { retentionMs }),
    /** Started campaigns' stops: the withdrawn contacts live as long as the campaign's data. */
    stops: createStopStore(redis, keys, { retentionMs, ...lockOf(o) }),
    /** The operator's pauses and cancel marks. */
    controls: createControls(redis, keys),
    startChecks: createStartCheckStore(redis, keys, lockOf(o)),
    /** Applied resources, the versions campaigns use, test calls. */
    resources: createResourceState(redis, keys),
    traces: createCampaignTraces(redis, keys, { ttlMs: retentionMs }),
    /** The daemons running, their roles and the jobs each loads and ticks. */
    presence: createPresenceStore(redis, keys),
    /** The operator surface's signed-out sessions. */
    revoked: revokedSessions(redis, keys),
    /** The sign-in throttle every daemon shares, on the daemon's clock (told when the surface starts). */
    signInThrottle: (t: ThrottleOptions) => signInThrottle(redis, keys, t),
  };
}

export type Stores = ReturnType<typeof openStores>;

/**
 * The stores' options from the settings: a command's as they are, the daemon's with its jobs'
 * longest recall, the service's settle wait and its log of expired lists.
 */
export const storeOptionsOf = (s: Settings, o: Partial<StoreOptions> = {}): StoreOptions => ({
  retentionMs: retentionMsOf(s),
  keepCallsMs: retentionMsOf(s),
  leaseMs: leaseMsOf(s),
  settleMs: s.settleMs.value,
  inboxes: { bucket: s.bucket.value, downloads: downloadsDir(s), claimMs: s.lockMs.value },
  lockMs: s.lockMs.value,
  ...o,
});

/** The ledger lease: longer than any create can stay in flight, so a live attempt is never overtaken. */
export const leaseMsOf = (s: Settings) =>
  s.requestTimeoutMs.value * (s.maxRetries.value + 1) + s.leaseMarginMs.value;

const lockOf = (o: StoreOptions) => (o.lockMs ? { lockMs: o.lockMs } : {});
