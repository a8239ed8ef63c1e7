import type { Logger } from "pino";
import type { JobDefinition } from "../config/job-definition.ts";
import type { CampaignRegistry } from "../pipeline/stores/campaign-registry.ts";

/**
 * A job whose campaigns no running daemon polls: its file is loaded in no process that ticks it
 * (removed from `jobs/`, or a deploy without it), while some of its campaigns are still active.
 * Nobody then reads their results, stops them when their window closes, or takes out the people who
 * opt out: the service goes on calling.
 */
export interface UnpolledJob {
  job: string;
  /** Its campaigns still active (polled when a daemon loads the job again). */
  active: number;
  /** Its file is loaded nowhere, or it is loaded here without a `campaign` section (nothing to poll with). */
  why: "not-loaded" | "no-campaign-section";
}

type Reads = Pick<CampaignRegistry, "jobsWithCampaigns" | "activeCountOf" | "pollLag">;

/**
 * The jobs with active campaigns whose poll tick no process recorded lately, but those this process
 * ticks (`loaded` with a campaign section: their views show how far behind it is). A tick's record
 * lives three periods and at least a minute (poll-tick.ts), so a job another daemon ticks is not named.
 */
export async function unpolledJobs(
  store: Reads,
  loaded: ReadonlyMap<string, Pick<JobDefinition, "campaign">>,
): Promise<UnpolledJob[]> {
  const out: UnpolledJob[] = [];
  for (const job of (await store.jobsWithCampaigns()).sort()) {
    const def = loaded.get(job);
    if (def?.campaign) continue;
    const active = await store.activeCountOf(job);
    if (active > 0 && !(await store.pollLag(job)))
      out.push({ job, active, why: def ? "no-campaign-section" : "not-loaded" });
  }
  return out;
}

/** The warning a scheduler logs once a minute for each job of `unpolledJobs`, and `vcw status` prints. */
export const unpolledText = ({ job, active, why }: UnpolledJob) =>
  `job "${job}" has ${active} active campaign${active === 1 ? "" : "s"} that no running daemon polls ` +
  `(${WHY[why]}): no results, no stop at the window's close, no opt-out taken out; ${FIX[why]}`;

/** Logs `unpolledText` of each job, with its fields. */
export function warnUnpolled(logger: Logger, jobs: readonly UnpolledJob[]): void {
  for (const j of jobs) logger.warn({ job: j.job, activeCampaigns: j.active, why: j.why }, unpolledText(j));
}

/** Why nobody polls, and what brings the polls back, as the log and the dashboard say it. */
const WHY: Record<UnpolledJob["why"], string> = {
  "not-loaded": "its job file is loaded nowhere",
  "no-campaign-section": "its job file has no campaign section",
};
const FIX: Record<UnpolledJob["why"], string> = {
  "not-loaded": "put the file back in the jobs folder, or deploy a daemon that has it",
  "no-campaign-section": "put its campaign section back",
};
