import { normalizeHeader } from "./field-synonyms.ts";

/**
 * Columns that say where a contact is: a time zone, or a state/region/province. Not contact fields
 * (the service's contact has none): the calling rules read them. Pure.
 */
export interface LocationColumns {
  timezone?: number;
  region?: number;
}

/** What a row says of where its contact is (cells as written, trimmed). */
export interface LocationHints {
  timezone?: string;
  region?: string;
}

/**
 * Normalized header names, best first (CRM exports: HubSpot, Salesforce, Zoho, Outlook, Google). A
 * county is no region: "Orange" is a county of California, Florida, New York, Texas...
 */
export const LOCATION_SYNONYMS = {
  timezone: ["timezone", "contacttimezone", "localtimezone", "tz", "ianatimezone", "timezonename"],
  region: [
    "state",
    "stateregion",
    "stateprovince",
    "stateorprovince",
    "statecode",
    "mailingstate",
    "mailingstateprovince",
    "addressregion",
    "addressstate",
    "homeaddressstate",
    "homestate",
    "billingstate",
    "billingstateprovince",
    "shippingstate",
    "businessstate",
    "businessaddressstate",
    "otherstate",
    "province",
    "region",
  ],
} as const;

/** The location columns of a header row: an explicit header wins, else the best-named column. */
export function locationColumns(
  headers: readonly string[],
  explicit: { timezone?: string | undefined; region?: string | undefined } = {},
): LocationColumns {
  const normalized = headers.map(normalizeHeader);
  const pick = (field: keyof typeof LOCATION_SYNONYMS): number | undefined => {
    const wanted = explicit[field];
    if (wanted !== undefined) {
      const at = normalized.indexOf(normalizeHeader(wanted));
      return at < 0 ? undefined : at;
    }
    for (const name of LOCATION_SYNONYMS[field]) {
      const at = normalized.indexOf(name);
      if (at >= 0) return at;
    }
    return undefined;
  };
  const out: LocationColumns = {};
  const timezone = pick("timezone");
  const region = pick("region");
  if (timezone !== undefined) out.timezone = timezone;
  if (region !== undefined) out.region = region;
  return out;
}

/** A row's location hints. */
export function locationOf(cells: readonly string[], columns: LocationColumns): LocationHints {
  const out: LocationHints = {};
  const timezone = columns.timezone === undefined ? "" : (cells[columns.timezone] ?? "").trim();
  const region = columns.region === undefined ? "" : (cells[columns.region] ?? "").trim();
  if (timezone) out.timezone = timezone;
  if (region) out.region = region;
  return out;
}

/** A row's location hints, or undefined when there are no columns or its cells are empty. */
export function hintsOf(
  cells: readonly string[],
  columns: LocationColumns | undefined,
): LocationHints | undefined {
  if (!columns) return undefined;
  const hints = locationOf(cells, columns);
  return hints.timezone || hints.region ? hints : undefined;
}
