import type { CountryCode } from "libphonenumber-js/max";
import { ingestOptionsOf } from "../config/ingest-options.ts";
import { findJob, loadJobs } from "../config/load-jobs.ts";
import { resolveSettings } from "../config/settings.ts";
import type { IngestOptions } from "../ingest/options.ts";
import { CliError } from "./cli-error.ts";

/** The reading options of job `name` (country, mapping, sheet, limits), from the jobs folder in force. */
export async function jobReadingOptions(name: string): Promise<Partial<IngestOptions>> {
  const dir = resolveSettings().jobsDir.value;
  const found = findJob(await loadJobs(dir), name, dir);
  if ("error" in found) throw new CliError(found.error);
  return ingestOptionsOf(found.job);
}

/** Which country a number without +country code is read in, and why: for a person to see. */
export function describeCountry(
  country: CountryCode | undefined,
  from: "--country" | `job ${string}`,
): string {
  if (country) return `${country} (${from})`;
  return "none assumed: numbers need their +country code (give --country CODE or --job NAME)";
}
