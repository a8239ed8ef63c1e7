import type { JobDefinition } from "../../config/job-definition.ts";
import { zoneOf } from "../../config/job-zone.ts";
import { nextReportAt } from "../../pipeline/reports/period.ts";
import type { StoredCampaign } from "../../pipeline/stores/campaign-store.ts";

/** What comes next (issue 40): the dashboard says it, as the report does. */
export interface WhatsNext {
  /** The soonest start of a kept campaign still waiting for it, in its zone; null when none waits. */
  start: { id: string; name: string; job: string; at: string; zone: string } | null;
  /** Each job's next scheduled report, soonest first, in the zone it is made in. */
  reports: { job: string; at: string; zone: string }[];
}

/** The soonest waiting start and each job's next report, as of `now`. */
export function whatsNext(
  kept: readonly StoredCampaign[],
  jobs: ReadonlyMap<string, JobDefinition>,
  now: number,
): WhatsNext {
  let start: WhatsNext["start"] = null;
  for (const c of kept) {
    const at = Date.parse(c.info.scheduledAt);
    if (c.info.state !== "active" || !(at > now) || (start && Date.parse(start.at) <= at)) continue;
    const zone = zoneOf(jobs.get(c.info.job), c.info.zone);
    start = { id: c.info.id, name: c.info.name, job: c.info.job, at: c.info.scheduledAt, zone };
  }
  const reports = [...jobs.values()].flatMap((def) => {
    const next = nextReportAt(def, now);
    return next ? [{ job: def.name, at: new Date(next.at).toISOString(), zone: next.zone }] : [];
  });
  return { start, reports: reports.sort((a, b) => a.at.localeCompare(b.at)) };
}
