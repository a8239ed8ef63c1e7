import type { Action, DriftKind } from "../../pipeline/model/resources.ts";
import type { ApplyReport } from "../../pipeline/resources/apply.ts";

const MARK: Record<Action, string> = { create: "+", replace: "±", update: "~", delete: "-", unchanged: "=" };
const DRIFT_MARK: Record<DriftKind, string> = { changed: "!", deleted: "!", unmanaged: "?", unchecked: "·" };

/** The plan, what was done and the drift, for a terminal. Specs hold secrets by name only. */
export function formatApplyReport(r: ApplyReport): string {
  const lines = [r.applied ? "Applied:" : "Plan (dry run, nothing changed):"];
  for (const s of r.steps) {
    const what = s.action === "create" || s.action === "replace" ? ` ${s.recordName}` : "";
    const adopt = s.adopt ? ` (the record ${s.adopt} already there is taken)` : "";
    const why = s.reason ? ` (${s.reason})` : "";
    lines.push(`  ${MARK[s.action]} ${s.kind} ${s.name}: ${s.action}${what}${adopt}${why}`);
    for (const d of s.diff) lines.push(`      ${d}`);
    for (const d of s.deletions) {
      const id = d.id ? ` (${d.id})` : "";
      lines.push(
        `      ${d.keptBecause ? `keep ${d.recordName}${id}: ${d.keptBecause}` : `delete ${d.recordName}${id}`}`,
      );
    }
  }
  if (r.drift.length > 0) lines.push("Drift (the service since the last apply):");
  for (const d of r.drift) {
    lines.push(`  ${DRIFT_MARK[d.drift]} ${d.kind} ${d.name}: ${d.drift}: ${d.detail}`);
    for (const line of d.diff ?? []) lines.push(`      ${line}`);
  }
  return `${lines.join("\n")}\n`;
}
