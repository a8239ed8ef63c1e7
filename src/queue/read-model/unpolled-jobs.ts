import type { Logger } from "pino";
import type { CampaignRegistry } from "../../pipeline/stores/campaign-registry.ts";
import type { DaemonPresence } from "../../pipeline/stores/daemon-presence.ts";

/**
 * A job whose active campaigns no running daemon polls. Nobody then reads their results, stops them
 * when their window closes, or takes out the people who opt out: the service goes on calling.
 * Why: no `vcw start` runs (only it ticks poll schedules); the running ones don't load the job (its
 * file removed, or a deploy without it); or they load it without a `campaign` section.
 */
export interface UnpolledJob {
  job: string;
  /** Its campaigns still active (polled once a daemon ticks the job again). */
  active: number;
  why: "no-scheduler" | "not-loaded" | "no-campaign-section";
  /** Why, and what brings the polls back, in words (the log, `vcw status` and the dashboard say these). */
  reason: string;
  fix: string;
}

type Reads = Pick<CampaignRegistry, "jobsWithCampaigns" | "activeCountOf" | "pollLag">;
type Daemon = Pick<DaemonPresence, "role" | "ticks" | "loaded">;

const WORDS: Record<UnpolledJob["why"], { reason: string; fix: string }> = {
  "no-scheduler": { reason: "no vcw start is running", fix: "start one (vcw start)" },
  "not-loaded": {
    reason: "no running vcw start loads its job file",
    fix: "put the file back in the jobs folder, or deploy a daemon that has it",
  },
  "no-campaign-section": {
    reason: "its job file has no campaign section",
    fix: "put its campaign section back",
  },
};

/**
 * Why nobody polls `job` (undefined: a fresh `vcw start` ticks it), by the daemons' presence
 * (`daemons`: every process that reads gets the same answer, whatever the job's schedule). A `vcw
 * start` of an earlier version names no jobs: while one runs, a job whose poll tick was recorded
 * lately (poll-tick.ts) counts as ticked.
 */
export async function whyUnpolled(
  store: Pick<Reads, "pollLag">,
  daemons: readonly Daemon[],
  job: string,
): Promise<Pick<UnpolledJob, "why" | "reason" | "fix"> | undefined> {
  const starts = daemons.filter((d) => d.role === "start");
  if (starts.some((d) => d.ticks?.includes(job))) return undefined;
  if (starts.some((d) => d.ticks === undefined) && (await store.pollLag(job))) return undefined;
  const why: UnpolledJob["why"] =
    starts.length === 0
      ? "no-scheduler"
      : starts.some((d) => d.loaded?.includes(job))
        ? "no-campaign-section"
        : "not-loaded";
  return { why, ...WORDS[why] };
}

/** The jobs with active campaigns that nobody polls (`whyUnpolled`), of those that ever had one. */
export async function unpolledJobs(store: Reads, daemons: readonly Daemon[]): Promise<UnpolledJob[]> {
  const found = await Promise.all(
    (await store.jobsWithCampaigns()).sort().map(async (job) => {
      const why = await whyUnpolled(store, daemons, job);
      const active = why ? await store.activeCountOf(job) : 0;
      return why && active > 0 ? { job, active, ...why } : undefined;
    }),
  );
  return found.filter((j) => j !== undefined);
}

/** The warning the scheduler logs and `vcw status` prints for a job of `unpolledJobs`. */
export const unpolledText = (j: UnpolledJob) =>
  `job "${j.job}" has ${j.active} active campaign${j.active === 1 ? "" : "s"} that no running daemon polls ` +
  `(${j.reason}): no results, no stop at the window's close, no opt-out taken out; ${j.fix}`;

/**
 * Of each look's findings, those found by the look before too: a daemon starting beside the one that
 * ticks a job may look before that one announced itself. Pure, but for what it remembers.
 */
export function unpolledStreak(): (found: readonly UnpolledJob[]) => UnpolledJob[] {
  let last = new Set<string>();
  return (found) => {
    const again = found.filter((j) => last.has(j.job));
    last = new Set(found.map((j) => j.job));
    return again;
  };
}

/** Logs `unpolledText` of each job, with its fields. */
export function warnUnpolled(logger: Logger, jobs: readonly UnpolledJob[]): void {
  for (const j of jobs) logger.warn({ job: j.job, activeCampaigns: j.active, why: j.why }, unpolledText(j));
}
