import { setImmediate as nextTurn } from "node:timers/promises";
import type { JobDefinition } from "../../config/job-definition.ts";
import { zoneOf } from "../../config/job-zone.ts";
import type { InboxStores } from "../../inbox/inbox-store.ts";
import type { CampaignStore } from "../stores/campaign-store.ts";
import { CallEnds } from "./call-ends.ts";
import { experimentSection } from "./experiment-section.ts";
import { type CampaignsNotMade, type ExperimentFacts, gatherExperiment } from "./gather-experiment.ts";
import { importFacts } from "./import-facts.ts";
import type { ReportCampaignNotMade, ReportModel, ReportPeriod } from "./model.ts";
import { nextReportAt } from "./period.ts";
import { callFacts } from "./read-calls.ts";
import { ReportBuilder } from "./report-builder.ts";

export interface ReportSources {
  store: CampaignStore;
  /** Each job's inbox: its import summaries are read there (without, files are not counted: an experiment's look). */
  inboxes?: InboxStores;
  /** Deliveries that failed for good, when the caller can read them (the queue layer). */
  failedDeliveries?: (since: number) => Promise<{ sink: string; reason: string; at: number }[]>;
  /** The experiment store's decisions and assignments (a job with `campaign.variants`). */
  experiments?: ExperimentFacts | undefined;
  /** Campaigns asked for since `since` and never made, when the caller can read them (the queue layer). */
  campaignsNotMade?: CampaignsNotMade;
  /** VCW_PUBLIC_URL: campaigns link to their results there. */
  publicUrl?: string | undefined;
  /** Where campaign pages are, when not at the public URL: "" on the dashboard's own pages (relative links). */
  pagesAt?: string | undefined;
}

/** A campaign's page and results CSV under `base` (VCW_PUBLIC_URL, or "" for the dashboard's own pages). */
export const linksOf = (base: string | undefined) =>
  base === undefined
    ? undefined
    : (id: string) => {
        const page = `${base.replace(/\/+$/, "")}/campaigns/${encodeURIComponent(id)}`;
        return { page, csv: `${page}/results.csv` };
      };

/** Where a campaign's results are read: a link on the public URL, else the command that prints them. */
export const resultsOf = (publicUrl: string | undefined) => (id: string) =>
  publicUrl ? `${publicUrl.replace(/\/+$/, "")}/campaigns/${encodeURIComponent(id)}` : `vcw report ${id}`;

/**
 * The report of `period` for `defs` (one job, or all), read from what vcw keeps: every campaign
 * the store still has (30 days), its transitions in the two periods and the records of the calls
 * that ended then, one campaign at a time; and the jobs' import summaries.
 */
export async function gatherReport(
  defs: readonly JobDefinition[],
  period: ReportPeriod,
  sources: ReportSources,
  now: number,
  job = defs.length === 1 ? defs[0]!.name : "all",
): Promise<ReportModel> {
  const union = (pick: (d: JobDefinition) => readonly string[]) => [...new Set(defs.flatMap(pick))];
  const builder = new ReportBuilder({
    job,
    period,
    reached: union((d) => d.polling.statuses.reached),
    optedOut: union((d) => d.polling.statuses.optedOut),
    now,
    resultsOf: resultsOf(sources.publicUrl),
    linksOf: linksOf(sources.pagesAt ?? sources.publicUrl),
    nextReportAt: soonest(defs.map((d) => nextReportAt(d, now)?.at)),
  });
  const from = Date.parse(period.from);
  const to = Date.parse(period.to);
  const since = from - (to - from);
  const pause = yielder();
  for (const def of defs) {
    const ids = (await sources.store.allOf(def.name)).sort();
    // A few campaigns read at once (Redis round trips overlap), added in order: memory holds a batch.
    // The event loop is handed back every few thousand calls, so other requests go on meanwhile.
    let atOnce = FIRST_AT_ONCE;
    for (let i = 0; i < ids.length; ) {
      const batch = await Promise.all(
        ids
          .slice(i, i + atOnce)
          .map((id) => campaignFacts(sources.store, def, id, builder, { since, to, pause })),
      );
      i += atOnce;
      let calls = 0;
      for (const facts of batch) {
        if (!facts) continue;
        calls += facts.calls.length;
        builder.addCampaign({ ...facts, zone: zoneOf(def, facts.info.zone, period.timezone) });
        await pause(facts.calls.length);
      }
      // Large campaigns are read fewer at once: their answers are parsed in one turn when they come together.
      atOnce = Math.max(
        1,
        Math.min(READ_AT_ONCE, Math.floor((CALLS_AT_ONCE * batch.length) / Math.max(1, calls))),
      );
    }
    if (sources.inboxes)
      for await (const f of importFacts(sources.inboxes(def.inbox), since)) builder.addFile(f);
  }
  for (const d of (await sources.failedDeliveries?.(from)) ?? []) builder.addFailedDelivery(d);
  const names = new Set(defs.map((d) => d.name));
  for (const c of (await sources.campaignsNotMade?.(from)) ?? [])
    if (c.at && names.has(c.job)) builder.addCampaignNotMade({ ...notMadeOf(c), at: c.at });
  // A one-job report of an experiment: its section over the experiment up to the period's end, not the period.
  const experiment = defs.length === 1 ? await gatherExperiment(defs[0]!, sources, to) : undefined;
  return {
    ...builder.build(),
    ...(experiment ? experimentSection(experiment.figures, experiment.setup) : {}),
  };
}

/** The soonest of some times, or undefined when there is none. */
const soonest = (times: readonly (number | undefined)[]) =>
  times.reduce<number | undefined>(
    (a, t) => (t === undefined ? a : a === undefined ? t : Math.min(a, t)),
    undefined,
  );

/** What a report keeps of a campaign not made (the queue layer's view has more). */
const notMadeOf = (c: Omit<ReportCampaignNotMade, "at">): Omit<ReportCampaignNotMade, "at"> => ({
  name: c.name,
  job: c.job,
  file: c.file,
  ...(c.zone ? { zone: c.zone } : {}),
  ...(c.variant ? { variant: c.variant } : {}),
  attempt: c.attempt,
  contacts: c.contacts,
  outcome: c.outcome,
  reason: c.reason,
});

/** Campaigns read at once, at most; the first batch is smaller, until their size is known. */
const READ_AT_ONCE = 16;
const FIRST_AT_ONCE = 2;

/** Calls read at once, about: fewer campaigns at once when they are large (their answers, parsed as they come, share turns). */
const CALLS_AT_ONCE = 4_000;

/**
 * Hands the event loop back (a turn of its own for what follows: a campaign's transitions read,
 * its records parsed, its calls added), so a report of any size holds it a few ms at a time.
 */
function yielder(): (calls: number) => Promise<void> {
  return async (calls) => {
    if (calls > 0) await nextTurn();
  };
}

/** One campaign's calls that ended in [since, to), or undefined when it has none to give. */
async function campaignFacts(
  store: CampaignStore,
  def: JobDefinition,
  id: string,
  builder: ReportBuilder,
  o: { since: number; to: number; pause: (calls: number) => Promise<void> },
) {
  const stored = await store.get(id);
  if (!stored || !builder.concerns(stored.createdAt, stored.endedAt)) return undefined;
  const ends = new CallEnds(def.polling.statuses);
  for await (const t of store.transitionsBetween(id, o.since, o.to)) ends.add(t);
  await o.pause(ends.ends.size);
  return {
    info: stored.info,
    totals: stored.totals,
    calls: await callFacts(store, id, ends.ends, o.pause),
    ...(stored.stop?.ranPastWindow ? { ranPastWindow: true } : {}),
  };
}
