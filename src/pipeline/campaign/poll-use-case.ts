import { countryOf } from "../../config/ingest-options.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import { dialerKeyOf } from "../calling/plan-settings.ts";
import { nextPollAt } from "../model/poll-cadence.ts";
import { type PollOptions, type PollOutcome, pollCampaign } from "../results/poll-campaign.ts";
import type { CallFrequency } from "../stores/call-frequency.ts";
import type { CampaignRegistry } from "../stores/campaign-registry.ts";
import type { ConsentStore } from "../stores/consent-store.ts";
import { metaReadOnce } from "../stores/meta-once.ts";
import type { PaceStore } from "../stores/pace-store.ts";
import { type CallAuditDeps, callAudit } from "./call-audit.ts";
import { type LateCopies, type LateCopyDeps, lookForLateCopies } from "./late-copies.ts";
import { afterPoll, type Intent } from "./lifecycle.ts";
import { type PollStopsPort, pollStops } from "./stopping/poll-stops.ts";

/** Only what polling a campaign uses. */
export interface PollPort
  extends PollStopsPort,
    Omit<LateCopyDeps, "store">,
    Pick<PollOptions, "suppression" | "history"> {
  store: PollStopsPort["store"] & LateCopyDeps["store"] & Pick<CampaignRegistry, "metaOf">;
  /** Consent per number: a call's opt-out revokes it; the audit trail names the one relied on. */
  consent?: Pick<ConsentStore, "revoke" | "read">;
  /** The audit trail and what its records name (absent: no trail, a test's). */
  audit?: CallAuditDeps["audit"];
  frequency: PollStopsPort["frequency"] & Pick<CallFrequency, "callTimes">;
  pace: Pick<PaceStore, "observe">;
  /** Aborted when the daemon stops. */
  stopping: AbortSignal;
}

/** One poll job: its campaign, and the tick that enqueued it and the gap to the next. */
export interface PollRequest {
  campaignId: string;
  tick: number;
  periodMs: number;
}

export interface PolledCampaign {
  poll: PollOutcome;
  /** What follows its end: its summaries and a follow-up (a hand-back is asked for by the stops). */
  intents: Intent[];
  /** Something changed: the experiment guardrail may look (queue/experiment-guard.ts). */
  guard: boolean;
  /** Copies of its name found at this poll and taken on; or why the look failed (the poll went on). */
  lateCopies?: LateCopies | { failed: string };
}

/**
 * Polls one campaign and decides what follows: the dialer's pace learned, the stops around the
 * poll, its next poll's time, and on its end the lifecycle's intents. The caller applies them.
 */
export async function pollUseCase(p: PollPort, def: JobDefinition, r: PollRequest): Promise<PolledCampaign> {
  const { campaignId } = r;
  const polledAt = p.now();
  const poll = await pollCampaign(campaignId, {
    client: p.client,
    store: p.store,
    suppression: p.suppression,
    ...(p.consent ? { consent: p.consent } : {}),
    ...(p.audit && p.consent
      ? {
          audit: callAudit(def, {
            audit: p.audit,
            consent: p.consent,
            suppression: p.suppression,
            frequency: p.frequency,
            now: p.now,
          }),
        }
      : {}),
    classes: def.polling.statuses,
    stuckAfterMs: def.polling.stuckAfterMinutes * 60_000,
    now: p.now,
    signal: p.stopping,
    ...(p.history ? { history: p.history } : {}),
    country: countryOf(def),
    inFlight: def.polling.inFlight,
    overWithWithdrawn: pollStops(p, def, campaignId, r.periodMs).overWithWithdrawn,
  });
  if (poll.calls && poll.changed > 0)
    await p.pace.observe(dialerKeyOf(def), {
      campaignId,
      ...poll.calls,
      version: poll.version,
      now: p.now(),
    });
  // After its commit, the look for late copies and the stops read the campaign's meta once (stores/meta-once.ts).
  const read = { ...p, ...metaReadOnce(p.store, p.stops, campaignId) };
  const lateCopies = await lookAtPoll(read, def, r, poll.ended);
  const settle = pollStops(read, def, campaignId, r.periodMs);
  await settle.after(poll, polledAt);
  const intents: Intent[] = [];
  if (poll.pace) {
    const at = p.now();
    const q = def.polling;
    const due = nextPollAt(
      { ...poll.pace, tickMs: r.tick, at },
      {
        periodMs: r.periodMs,
        startGraceMs: q.startGraceSeconds * 1000,
        quietAfterMs: q.quiet.afterSeconds * 1000,
        ceilingMs: q.quiet.ceilingSeconds * 1000,
      },
    );
    await p.store.schedulePoll(def.name, campaignId, await settle.dueBy(due));
  }
  if (poll.ended) {
    const stored = await read.store.get(campaignId);
    if (stored) intents.push(...afterPoll(def, stored.info, poll, stored.startCheck));
  }
  return { poll, intents, guard: poll.changed > 0, ...(lateCopies ? { lateCopies } : {}) };
}

/**
 * The look for late copies at each poll until the campaign ends (the poll that ended it included),
 * for a campaign whose create was sent more than once (only then can a copy of it land late): from
 * a listing no older than the poll's tick, so all the polls of a tick share one. After the poll, so
 * that it reads the meta the stops read next. A look that fails never fails the poll.
 */
async function lookAtPoll(p: PollPort, def: JobDefinition, r: PollRequest, ended: boolean) {
  const stored = await p.store.get(r.campaignId);
  if (!stored?.info.resent || (stored.info.state !== "active" && !ended)) return undefined;
  return lookForLateCopies(def, stored, p, r.tick).catch((error: unknown) => ({ failed: String(error) }));
}
