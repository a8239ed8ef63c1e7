import type { Logger } from "pino";
import type { JobDefinition } from "../config/job-definition.ts";
import type { CampaignRegistry } from "../pipeline/stores/campaign-registry.ts";
import { pollJobId } from "./job-ids.ts";
import type { Queues } from "./queues.ts";

export interface PollTickDeps {
  queues: Queues;
  store: Pick<CampaignRegistry, "claimDue" | "setPollLag">;
  logger: Logger;
  now: () => number;
}

export interface TickReport {
  due: number;
  /** How late the most overdue campaign taken was. */
  lagMs: number;
  /** Polls waiting for a worker when this tick began (of any job). */
  waiting: number;
  /** Of the campaigns due, those whose poll of an earlier tick was still queued: none added for them. */
  stillQueued: number;
  behind: boolean;
  enqueueMs: number;
}

/** Jobs per addBulk call: one MULTI each, so a tick of 20,000 campaigns is 20 round trips. */
const BULK = 1_000;

/**
 * One tick of a job's poll schedule: takes the campaigns due (each once, however many replicas
 * tick: the claim is atomic) and enqueues a poll of each in bulk. A poll's job id is its campaign's,
 * so a campaign whose last poll is still waiting gets no second one: a worker that can't keep up
 * falls behind, says so, and doesn't pile up work.
 */
export async function pollTick(
  d: PollTickDeps,
  def: JobDefinition,
  tickMs: number,
  periodMs: number,
): Promise<TickReport> {
  const started = performance.now();
  const waiting = await d.queues.polls.getWaitingCount();
  // The oldest poll waiting: added before this tick, it is an earlier tick's (another job's tick
  // at the same second adds polls too, and those are not a sign of being behind).
  const [oldest] = waiting > 0 ? await d.queues.polls.getJobs(["waiting"], 0, 0, true) : [];
  // A poll lost on its way (a crash between the claim and the add) is taken again after the lease.
  const claim = await d.store.claimDue(def.name, d.now(), tickMs + 2 * periodMs);
  const fresh = waiting > 0 ? await notQueued(d.queues, claim.ids) : claim.ids;
  for (let i = 0; i < fresh.length; i += BULK) {
    await d.queues.polls.addBulk(
      fresh.slice(i, i + BULK).map((campaignId) => ({
        name: campaignId,
        data: { job: def.name, campaignId, tick: tickMs, periodMs },
        opts: { jobId: pollJobId(campaignId) },
      })),
    );
  }
  const lagMs = claim.oldestDueAt === undefined ? 0 : Math.max(0, tickMs - claim.oldestDueAt);
  const behind = isBehind(lagMs, periodMs, oldest !== undefined && oldest.timestamp < tickMs);
  const report = {
    due: claim.ids.length,
    lagMs,
    waiting,
    stillQueued: claim.ids.length - fresh.length,
    behind,
    enqueueMs: Math.round(performance.now() - started),
  };
  await d.store.setPollLag(
    def.name,
    { at: tickMs, lagMs, due: report.due, behind, enqueueMs: report.enqueueMs },
    Math.max(3 * periodMs, 60_000),
  );
  return report;
}

/**
 * The campaigns of `ids` whose poll is not queued already. A worker behind its schedule still has
 * polls of earlier ticks waiting when their lease ends and their campaigns are claimed again: BullMQ
 * would refuse each copy (the job id is the campaign's), but only after serializing it here and
 * running its add script in Redis; read after the claim, so a poll listed is one still to run (or
 * running, whose end schedules the next).
 */
async function notQueued(queues: Queues, ids: string[]): Promise<string[]> {
  const queued = new Set(await queues.polls.getRanges(["waiting", "active", "delayed"]));
  return ids.filter((id) => !queued.has(pollJobId(id)));
}

/**
 * Behind: polls of an earlier tick still wait for a worker, or a campaign missed more than one tick.
 * One tick of slack, because a timer that fires late on a busy machine (a tick a second) makes a
 * campaign one period late without anything piling up. Pure.
 */
export function isBehind(lagMs: number, periodMs: number, earlierPollsWaiting: boolean): boolean {
  return earlierPollsWaiting || lagMs >= 2 * periodMs;
}

/**
 * Logs the second tick behind in a row (one is a hiccup), then at most once a minute while behind,
 * and the tick that caught up.
 */
export function behindLogger(logger: Logger, job: string) {
  let behindSince = 0;
  let loggedAt = 0;
  let streak = 0;
  return (r: TickReport, at: number) => {
    const fields = {
      job,
      due: r.due,
      lagMs: r.lagMs,
      waitingPolls: r.waiting,
      stillQueued: r.stillQueued,
      enqueueMs: r.enqueueMs,
    };
    streak = r.behind ? streak + 1 : 0;
    if (r.behind && streak === 1) behindSince = at;
    if (streak >= 2 && (loggedAt < behindSince || at - loggedAt >= 60_000)) {
      loggedAt = at;
      logger.warn(
        { ...fields, behindForMs: at - behindSince },
        `polls of job ${job} are behind their schedule: ${r.waiting} polls still waiting for a worker, the most overdue campaign ${Math.round(r.lagMs / 1000)} s late (add workers, or poll less often)`,
      );
    } else if (!r.behind && behindSince !== 0) {
      if (loggedAt >= behindSince)
        logger.info({ ...fields, behindForMs: at - behindSince }, `polls of job ${job} caught up`);
      behindSince = 0;
    } else logger.debug(fields, "poll tick");
  };
}
