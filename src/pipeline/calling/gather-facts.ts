import { underCallingRules } from "../../config/calling-rules-switch.ts";
import { ingestOptionsOf } from "../../config/ingest-options.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import { hintsOf, locationColumns } from "../../ingest/location-columns.ts";
import { ContactFileReader } from "../../ingest/reader.ts";
import type { FileRow, FileRows } from "../stores/file-rows.ts";
import { type CalleeLocation, locateWithNumber, numberZones } from "./callee-location.ts";
import type { CallTime } from "./frequency.ts";
import type { ContactFacts } from "./plan-campaigns.ts";
import { inCalleeZone } from "./plan-settings.ts";

/** The reads the planner's facts come from: each a read, never a write (the preview relies on it). */
export interface FactSources {
  suppressed(phones: readonly string[]): Promise<Set<string>>;
  /** When another campaign last had each number (its planned start). */
  lastCalled(phones: readonly string[]): Promise<Map<string, number>>;
  callTimes(phones: readonly string[], now: number): Promise<Map<string, CallTime[]>>;
}

/** A file read for planning: its callable rows' facts, and its other rows by code. */
export interface FileFacts {
  contacts: ContactFacts[];
  /** Invalid rows by problem code (the first of each row), duplicates as `duplicate`. */
  invalid: Record<string, number>;
  /** Data rows read. */
  rows: number;
  /** The line of each planned phone, for the error report. */
  lines: Map<string, number>;
  /** The file's headers (the error report's first columns). */
  headers: string[];
}

/** A contact file read whole: its valid rows (each phone once, in file order), and its other rows by code. */
export interface ReadFile extends FileRows {
  /** Invalid rows by problem code (the first of each row), duplicates as `duplicate`. */
  invalid: Record<string, number>;
  /** Data rows read. */
  count: number;
}

/**
 * Reads a contact file as its import does (the same rows, and the location columns the calling
 * rules read): for the preview, and for a file whose rows its import could not keep.
 */
export async function readFileRows(def: JobDefinition, path: string): Promise<ReadFile> {
  const reader = await ContactFileReader.open(path, ingestOptionsOf(def));
  const columns = underCallingRules(def)
    ? locationColumns(reader.info.headers, def.calling.location)
    : undefined;
  const rows: FileRow[] = [];
  const invalid: Record<string, number> = {};
  let count = 0;
  for await (const row of reader) {
    count += 1;
    if (row.kind === "valid") {
      const { phone, index, line, contact, cells } = row;
      rows.push({ phone, index, line, contact, hints: hintsOf(cells, columns) });
    } else {
      const code =
        row.kind === "rejected"
          ? (row.issues[0]?.code ?? "rejected")
          : row.kind === "duplicate"
            ? "duplicate"
            : row.reason;
      invalid[code] = (invalid[code] ?? 0) + 1;
    }
  }
  return { headers: reader.info.headers, rows, invalid, count };
}

/**
 * What the planner needs of each of a file's valid rows: where the callee is (location columns,
 * then the number), opted out, when another campaign last had it, known call times. `only`: the
 * phones to plan (the file's new contacts), default all.
 */
export async function factsOf(
  def: JobDefinition,
  file: FileRows,
  sources: FactSources,
  at: number,
  only?: ReadonlySet<string>,
): Promise<Omit<FileFacts, "invalid" | "rows">> {
  const rows = only ? file.rows.filter((r) => only.has(r.phone)) : file.rows;
  const locate = locatorOf(def);
  const phones = rows.map((r) => r.phone);
  const recallMs = def.calling.caps.recallAfterDays * 86_400_000;
  const [suppressed, last, calls] = await Promise.all([
    sources.suppressed(phones),
    sources.lastCalled(phones),
    sources.callTimes(phones, at),
  ]);
  const contacts: ContactFacts[] = [];
  const lines = new Map<string, number>();
  for (const r of rows) {
    const { where, numberRegion } = locate(r.phone, r.hints);
    lines.set(r.phone, r.line);
    contacts.push({
      phone: r.phone,
      where,
      ...(numberRegion ? { numberRegion } : {}),
      optedOut: suppressed.has(r.phone),
      // As the import skips it (then the planner checks each opening, as the reservation does).
      recentlyCalled: last.has(r.phone) && Math.abs(at - last.get(r.phone)!) < recallMs,
      ...(last.has(r.phone) ? { lastCalledAt: last.get(r.phone) } : {}),
      calls: calls.get(r.phone) ?? [],
    });
  }
  return { contacts, lines, headers: file.headers };
}

/** Reads a contact file and gathers the planner's facts of its valid rows (the preview's way). */
export async function gatherFacts(
  def: JobDefinition,
  path: string,
  sources: FactSources,
  at: number,
  only?: ReadonlySet<string>,
): Promise<FileFacts> {
  const file = await readFileRows(def, path);
  return { ...(await factsOf(def, file, sources, at, only)), invalid: file.invalid, rows: file.count };
}

const NOWHERE: CalleeLocation = { zones: [], from: "none" };

/**
 * Where the planner places a callee. Under calling rules: every zone the number and the file's
 * location columns say (callee-location.ts). Without them only a window in the callee's zone asks,
 * and by the number's own data alone: its one zone, or none (the fallback) when it may be in zones
 * that keep different times; a campaign per zone.
 */
function locatorOf(def: JobDefinition): typeof locateWithNumber {
  if (underCallingRules(def)) return locateWithNumber;
  if (!inCalleeZone(def)) return () => ({ where: NOWHERE });
  return (phone) => {
    const zones = numberZones(phone);
    return { where: zones.length === 1 ? { zones, from: "number" } : NOWHERE };
  };
}
