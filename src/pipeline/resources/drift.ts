import type { ResourceEntry } from "../../config/load-resources.ts";
import type { AppliedResource, Drift } from "../model/resources.ts";
import { carriesName, holdsSent } from "./content.ts";
import { fieldDiff } from "./field-diff.ts";
import type { LiveRecord } from "./plan.ts";

export const DIALERS_UNCHECKED =
  "not checked: the spec has no dialer list or read, so a dialer changed or deleted on the service can't be seen (a campaign or test call through it fails instead)";

/**
 * What changed on the service since vcw applied it: a current version deleted, or holding other
 * values than were sent; a record vcw doesn't manage that carries a managed name. Dialers can't
 * be checked.
 */
export function findDrift(
  state: readonly AppliedResource[],
  declared: readonly ResourceEntry[],
  live: Record<"assistant" | "knowledgeBase", readonly LiveRecord[]>,
  /** Records this apply takes as its own (made by an apply cut short): vcw's, not unmanaged. */
  adopted: ReadonlySet<string> = new Set(),
): Drift[] {
  const drift: Drift[] = [];
  for (const s of state) {
    if (s.kind === "dialer") {
      drift.push({
        kind: s.kind,
        name: s.name,
        drift: "unchecked",
        ...(s.id ? { id: s.id } : {}),
        detail: DIALERS_UNCHECKED,
      });
      continue;
    }
    const current = s.versions.find((v) => v.id === s.id);
    const record = live[s.kind].find((l) => l.id === s.id);
    if (!current) continue;
    if (!record) {
      drift.push({
        kind: s.kind,
        name: s.name,
        drift: "deleted",
        id: current.id,
        detail: `${current.recordName} was deleted on the service`,
      });
    } else if (!holdsSent(current.body, record.fields)) {
      const seen = Object.fromEntries(Object.keys(current.body).map((k) => [k, record.fields[k]]));
      drift.push({
        kind: s.kind,
        name: s.name,
        drift: "changed",
        id: current.id,
        detail: `${current.recordName} holds other values on the service than were applied`,
        diff: fieldDiff(current.body, seen),
      });
    }
  }
  drift.push(...unmanaged(state, declared, live, adopted));
  return drift;
}

function unmanaged(
  state: readonly AppliedResource[],
  declared: readonly ResourceEntry[],
  live: Record<"assistant" | "knowledgeBase", readonly LiveRecord[]>,
  adopted: ReadonlySet<string>,
): Drift[] {
  const known = new Set([...state.flatMap((s) => s.versions.map((v) => v.id)), ...adopted]);
  const drift: Drift[] = [];
  for (const kind of ["assistant", "knowledgeBase"] as const) {
    const names = new Set([...state, ...declared].filter((r) => r.kind === kind).map((r) => r.name));
    for (const record of live[kind]) {
      if (known.has(record.id)) continue;
      const name = [...names].find((n) => carriesName(record.name, n));
      if (name)
        drift.push({
          kind,
          name,
          drift: "unmanaged",
          id: record.id,
          detail: `${record.name} (${record.id}) carries a managed name but was not made by vcw apply`,
        });
    }
  }
  return drift;
}
