import type { Job } from "bullmq";
import { maskPhonesIn } from "../../lib/mask-phone.ts";
import { plural } from "../../lib/plural.ts";
import { type CancelOutcome, cancelCampaigns } from "../../pipeline/campaign/cancel-campaign.ts";
import { revokeConsent } from "../../pipeline/consent/revoke-consent.ts";
import { campaignRequestsMatching } from "../campaign-requests.ts";
import type { ImportJobData } from "../queues.ts";
import { type Action, type ActionResult, describeAction, type Retryable } from "./action.ts";
import type { ActionContext } from "./action-context.ts";
import { cancelLine, NO_STOP } from "./cancel-pending.ts";
import { experimentAction } from "./experiment-action.ts";
import { runHeld } from "./run-held.ts";
import { stopStarted } from "./stop-started.ts";

/** Failed jobs are read this many at a time when acting on all that match a filter. */
const PAGE = 500;

/**
 * Runs what an operator asked (page or CLI, the same code) and logs it with who asked and what
 * became of it. Never throws for a refused action: the result says why.
 */
export async function runAction(ctx: ActionContext, action: Action, who: string): Promise<ActionResult> {
  let result: ActionResult;
  try {
    result = await run(ctx, action, who);
  } catch (error) {
    result = { ok: false, count: 0, message: `failed: ${(error as Error).message}` };
  }
  const what = maskPhonesIn(describeAction(action));
  const message = maskPhonesIn(result.message);
  (result.ok ? ctx.logger.info : ctx.logger.warn).call(
    ctx.logger,
    { who, action: what, count: result.count },
    `operator action: ${what}: ${message}`,
  );
  return { ...result, message };
}

const done = (count: number, message: string): ActionResult => ({ ok: true, count, message });
const refused = (message: string): ActionResult => ({ ok: false, count: 0, message });

async function run(ctx: ActionContext, a: Action, who: string): Promise<ActionResult> {
  const { controls } = ctx;
  switch (a.kind) {
    case "pause":
      if (ctx.jobs().size > 0 && !ctx.jobs().has(a.job))
        return refused(`no job "${a.job}" (jobs: ${[...ctx.jobs().keys()].join(", ")})`);
      return (await controls.pause(a.job))
        ? done(
            1,
            `job ${a.job} paused: no contact is sent and no campaign created until it is resumed; ${NO_STOP}`,
          )
        : done(0, `job ${a.job} was already paused`);
    case "resume": {
      const resumed = await controls.resume(a.job);
      if (resumed) await runHeld(ctx.queues, a.job);
      return resumed ? done(1, `job ${a.job} resumed`) : done(0, `job ${a.job} was not paused`);
    }
    case "stop":
      // A campaign that exists is stopped; one only asked for is canceled, as `cancel` does.
      return (await stopStarted(ctx, a.campaign)) ?? cancelOrStop(ctx, a);
    case "cancel":
      return cancelOrStop(ctx, a);
    case "experiment-stop":
    case "experiment-promote":
      return experimentAction(ctx, a);
    case "retry":
      return a.queue === "imports" ? rerunFile(ctx, a.id) : retryOne(ctx, a.queue, a.id);
    case "retry-all":
      return retryAll(ctx, a);
    case "consent-revoke": {
      const at = Date.now();
      await revokeConsent(a.phones, at, `operator ${who}`, ctx.revocations);
      const n = a.phones.length;
      return done(
        n,
        `consent of ${n} ${plural("number", n)} revoked at ${new Date(at).toISOString()}, for every job`,
      );
    }
  }
}

/** Canceled only when no campaign can exist; one that exists, or may, is refused, saying which. */
async function cancelOrStop(
  ctx: ActionContext,
  a: Extract<Action, { kind: "cancel" | "stop" }>,
): Promise<ActionResult> {
  const requests = await campaignRequestsMatching(ctx.queues, a.campaign);
  const outcomes = await cancelCampaigns(ctx, requests);
  if (outcomes.length === 0)
    return refused(
      a.kind === "stop"
        ? `no campaign asked for matches "${a.campaign}": if it exists, ${NO_STOP}`
        : `no campaign asked for matches "${a.campaign}" (vcw status lists them)`,
    );
  if (a.kind === "stop") return stopEach(ctx, outcomes);
  const lines = outcomes.map(cancelLine).join("\n");
  if (outcomes.every((o) => o.kind === "canceled")) return done(outcomes.length, lines);
  return refused(`${lines}\nnot every campaign of ${a.campaign} could be canceled: ${NO_STOP}`);
}

/** `stop` by file: campaigns not created are canceled, those created are stopped (stop-started.ts). */
async function stopEach(ctx: ActionContext, outcomes: CancelOutcome[]): Promise<ActionResult> {
  const results = [];
  for (const o of outcomes) {
    const stopped = o.kind === "exists" ? await stopStarted(ctx, o.id) : undefined;
    results.push(
      stopped ?? { ok: o.kind === "canceled", count: o.kind === "canceled" ? 1 : 0, message: cancelLine(o) },
    );
  }
  const ok = results.every((r) => r.ok);
  const lines = results.map((r) => r.message).join("\n");
  const count = results.reduce((n, r) => n + r.count, 0);
  const stopping = results.flatMap((r) => r.stopping ?? []);
  const result = ok ? done(count, lines) : refused(`${lines}\n${notEveryStop(results)}`);
  return stopping.length > 0 ? { ...result, stopping } : result;
}

/**
 * The last line of a stop by file that did not stop everything. A stop refused with a campaign to
 * wait for (`stopping`) is one recorded for a job no daemon polls: it waits for a poll, it is not
 * impossible, and the line says so when that is every refusal.
 */
export function notEveryStop(results: readonly ActionResult[]): string {
  const refusals = results.filter((r) => !r.ok);
  const waiting = refusals.filter((r) => (r.stopping?.length ?? 0) > 0).length;
  return waiting > 0 && waiting === refusals.length
    ? `not every stop is carried out yet: ${waiting} ${plural("campaign", waiting)} ${waiting === 1 ? "waits" : "wait"} for a daemon that polls ${waiting === 1 ? "its" : "their"} job (above)`
    : `not every campaign could be stopped: ${NO_STOP}`;
}

async function retryOne(ctx: ActionContext, queue: Exclude<Retryable, "imports">, id: string) {
  const job = await ctx.queues[queue].getJob(id);
  if (!job) return refused(`no ${queue} job ${id}`);
  if (!(await job.isFailed())) return refused(`${queue} job ${id} has not failed: nothing to retry`);
  await job.retry("failed");
  return done(1, `${queue} job ${id} sent back to the queue`);
}

/** Every failed job of a queue that matches, read a page at a time. */
async function failedMatching(
  ctx: ActionContext,
  queue: Retryable,
  keep: (j: Job) => boolean,
): Promise<Job[]> {
  const q = ctx.queues[queue];
  const total = await q.getFailedCount();
  const out: Job[] = [];
  for (let start = 0; start < total; start += PAGE)
    for (const j of await q.getFailed(start, start + PAGE - 1)) if (j && keep(j)) out.push(j);
  return out;
}

async function retryAll(
  ctx: ActionContext,
  a: Extract<Action, { kind: "retry-all" }>,
): Promise<ActionResult> {
  const keep = (j: Job) =>
    (a.sink === undefined || (j.data as { sink?: string }).sink === a.sink) &&
    (a.job === undefined || (j.data as { job?: string }).job === a.job);
  const jobs = await failedMatching(ctx, a.queue, keep);
  if (a.queue === "imports") {
    const results = [];
    for (const j of jobs) results.push(await rerunFile(ctx, j.id!));
    const ok = results.filter((r) => r.ok).length;
    const problems = results.filter((r) => !r.ok).map((r) => r.message);
    return {
      ok: problems.length === 0,
      count: ok,
      message: `${ok} rejected ${plural("file", ok)} dropped into their inbox again${problems.length ? `; ${problems.join("; ")}` : ""}`,
    };
  }
  for (const j of jobs) await j.retry("failed");
  return done(
    jobs.length,
    `${jobs.length} failed ${a.queue} ${plural("job", jobs.length)} sent back to the queue`,
  );
}

/**
 * A rejected file is imported afresh when dropped again (the file registry lets it): it goes back
 * into its inbox under the name it arrived with, and its failed import leaves the failed list.
 */
async function rerunFile(ctx: ActionContext, id: string): Promise<ActionResult> {
  const job = (await ctx.queues.imports.getJob(id)) as Job<ImportJobData> | undefined;
  if (!job || !(await job.isFailed())) return refused(`no rejected file with import ${id}`);
  const def = ctx.jobs().get(job.data.job);
  if (!def) return refused(`the job ${job.data.job} of ${job.data.original} is not loaded`);
  const inbox = ctx.inboxes(def.inbox);
  const { file, original } = job.data;
  if (!(await inbox.exists("rejected", file)))
    return refused(`${original} is no longer in ${inbox.whereIs("rejected", "")}`);
  if (await inbox.exists("inbox", original))
    return refused(`a file named ${original} is waiting in the inbox already`);
  await inbox.move("rejected", file, "inbox", original);
  await job.remove().catch(() => undefined);
  return done(1, `${original} dropped into ${inbox.where} again: it is imported afresh`);
}
