import { isDeepStrictEqual } from "node:util";
import { canonicalJson } from "./content.ts";

const MAX_VALUE = 60;

/** A value as one short line: JSON, cut with an ellipsis. */
function show(value: unknown): string {
  const text = canonicalJson(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/** Question/answer pairs told by count: whole lists would drown the plan. */
function pairsChange(before: unknown[], after: unknown[]): string {
  const had = new Set(before.map(canonicalJson));
  const has = new Set(after.map(canonicalJson));
  const added = [...has].filter((p) => !had.has(p)).length;
  const removed = [...had].filter((p) => !has.has(p)).length;
  return `${before.length} -> ${after.length} pairs (${added} new or changed, ${removed} gone)`;
}

/**
 * The top-level fields that differ between two specs, one line each: `+ field: value` (added),
 * `- field: value` (removed), `~ field: old -> new`. Specs hold secrets as `{ env }` references,
 * so no secret value can appear here.
 */
export function fieldDiff(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const lines: string[] = [];
  for (const f of fields) {
    const [a, b] = [before[f], after[f]];
    if (isDeepStrictEqual(a, b)) continue;
    if (a === undefined) lines.push(`+ ${f}: ${show(b)}`);
    else if (b === undefined) lines.push(`- ${f}: ${show(a)}`);
    else if (f === "data" && Array.isArray(a) && Array.isArray(b)) lines.push(`~ ${f}: ${pairsChange(a, b)}`);
    else lines.push(`~ ${f}: ${show(a)} -> ${show(b)}`);
  }
  return lines;
}
