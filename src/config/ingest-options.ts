import type { CountryCode } from "libphonenumber-js/max";
import type { IngestOptions } from "../ingest/options.ts";
import type { JobDefinition } from "./job-definition.ts";

/** The job's country, in which phones written without a country code are read. */
export const countryOf = (def: JobDefinition): CountryCode | undefined =>
  def.contacts.country?.toUpperCase() as CountryCode | undefined;

/** The reading options a job definition asks for. */
export function ingestOptionsOf(def: JobDefinition): Partial<IngestOptions> {
  return {
    defaultCountry: countryOf(def),
    emailPolicy: def.contacts.emailPolicy,
    mapping: def.contacts.mapping ?? {},
    ...(def.contacts.sheet !== undefined ? { sheet: def.contacts.sheet } : {}),
    ...(def.limits.maxFileBytes ? { maxFileBytes: def.limits.maxFileBytes } : {}),
    ...(def.limits.maxRows ? { maxRows: def.limits.maxRows } : {}),
  };
}
