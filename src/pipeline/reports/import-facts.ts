import type { InboxStore } from "../../inbox/inbox-store.ts";
import type { FileFact } from "./figures.ts";
import type { FileRepairs } from "./model.ts";

const SUMMARY = ".summary.json";
/** A summary larger than this is not one vcw wrote: it is skipped rather than read into memory. */
const MAX_SUMMARY_BYTES = 1_000_000;

interface SummaryJson {
  status?: string;
  original?: string;
  file?: string;
  finishedAt?: string;
  totals?: {
    total?: number;
    valid?: number;
    rejected?: number;
    duplicates?: number;
    codes?: Record<string, number>;
  };
  created?: number;
  listed?: { duplicatesRemoved?: number };
  checksBeforeStart?: {
    duplicatesRemoved?: number;
    campaignsRepaired?: number;
    withdrawn?: number;
    copiesAdopted?: number;
    calledTwice?: number;
  };
  audience?: { optedOut?: number; recentlyCalled?: number; skipped?: Record<string, number> };
  reason?: string;
}

/** What one `<file>.summary.json` says, or undefined when it is not one vcw wrote. */
export function fileFactOf(text: string): FileFact | undefined {
  let s: SummaryJson;
  try {
    s = JSON.parse(text) as SummaryJson;
  } catch {
    return undefined;
  }
  const finishedAt = Date.parse(s.finishedAt ?? "");
  if ((s.status !== "imported" && s.status !== "rejected") || Number.isNaN(finishedAt)) return undefined;
  const t = s.totals;
  return {
    status: s.status,
    file: s.original ?? s.file ?? "(unnamed)",
    finishedAt,
    ...(t
      ? {
          rows: {
            total: t.total ?? 0,
            valid: t.valid ?? 0,
            rejected: t.rejected ?? 0,
            duplicates: t.duplicates ?? 0,
            codes: t.codes ?? {},
          },
        }
      : {}),
    ...(s.created !== undefined ? { created: s.created } : {}),
    ...(s.audience
      ? {
          notCalled: {
            optedOut: s.audience.optedOut ?? 0,
            recentlyCalled: s.audience.recentlyCalled ?? 0,
            ...(s.audience.skipped ? { byReason: s.audience.skipped } : {}),
          },
        }
      : {}),
    ...(s.listed || s.checksBeforeStart ? { repairs: repairsOf(s) } : {}),
    ...(s.reason ? { reason: s.reason } : {}),
  };
}

/** What a summary says was repaired: after the import (its listing) and before each campaign's start. */
const repairsOf = (s: SummaryJson): FileRepairs => {
  const k = s.checksBeforeStart;
  return {
    duplicatesRemoved: (s.listed?.duplicatesRemoved ?? 0) + (k?.duplicatesRemoved ?? 0),
    campaignsRepaired: k?.campaignsRepaired ?? 0,
    withdrawn: k?.withdrawn ?? 0,
    ...(k?.copiesAdopted ? { copiesAdopted: k.copiesAdopted } : {}),
    ...(k?.calledTwice ? { calledTwice: k.calledTwice } : {}),
  };
};

/**
 * The import summaries a job's inbox keeps (done/ and rejected/), one at a time, skipping those
 * last written before `since` (a summary is written when its file settles).
 */
export async function* importFacts(inbox: InboxStore, since: number): AsyncGenerator<FileFact> {
  for (const area of ["done", "rejected"] as const) {
    for await (const entry of inbox.list(area)) {
      if (!entry.name.endsWith(SUMMARY) || entry.modifiedMs < since || entry.bytes > MAX_SUMMARY_BYTES)
        continue;
      const fact = fileFactOf((await inbox.readText(area, entry.name, MAX_SUMMARY_BYTES)) ?? "");
      if (fact) yield fact;
    }
  }
}
