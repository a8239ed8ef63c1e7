import type { Running } from "../queue/read-model/running.ts";
import { readRunning } from "../queue/read-model/running.ts";
import type { ReadModelSources } from "../queue/read-model/sources.ts";
import { reportUrl } from "./report-file.ts";

export type { CampaignView, PendingCampaign } from "../queue/read-model/campaign-views.ts";
export type { FailedDelivery, RetryingDelivery } from "../queue/read-model/deliveries.ts";
export type { FileInFlight } from "../queue/read-model/import-files.ts";
export type { JobView } from "../queue/read-model/job-views.ts";
export type { QueueView } from "../queue/read-model/queue-views.ts";
export type OverviewSources = ReadModelSources;

/** A finished import as the dashboard lists it: its report as a link. */
export interface RecentFile extends Omit<Running["recentFiles"][number], "report"> {
  /** Link to the error report (or, for a rejected file, its summary), when it is there. */
  report: string | null;
}

/**
 * What the operator's surface shows: the read model (queue/read-model) as of `generatedAt`, with
 * report links. Phones are in it as stored; `present()` masks them for the page.
 */
export interface Overview extends Omit<Running, "recentFiles"> {
  generatedAt: string;
  /** False when Redis did not answer: the rest is the last good read (`readAt`), or empty. */
  redis: { ok: boolean; error?: string; readAt?: string };
  recentFiles: RecentFile[];
}

/** Reads the whole overview once. Throws when Redis is not connected (the caller keeps the last one). */
export async function readOverview(src: OverviewSources): Promise<Overview> {
  const { rate, ...running } = await readRunning(src);
  const at = new Date().toISOString();
  return {
    generatedAt: at,
    redis: { ok: true, readAt: at },
    rate,
    ...running,
    recentFiles: running.recentFiles.map((f) => ({
      ...f,
      report: f.report && reportUrl(f.report.job, f.report.folder, f.report.name),
    })),
  };
}
