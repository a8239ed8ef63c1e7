import type { ResourceEntry } from "../../config/load-resources.ts";
import { RESOURCE_KINDS, type ResourceKind } from "../../config/resource-definition.ts";
import { type AppliedResource, type PlannedDeletion, type Step, stateField } from "../model/resources.ts";
import { contentHash, versionName } from "./content.ts";
import { fieldDiff } from "./field-diff.ts";

/** A record as listed by the service: its id, its name (a knowledge base's title) and its fields. */
export interface LiveRecord {
  id: string;
  name: string | undefined;
  fields: Record<string, unknown>;
}

export interface PlanInput {
  declared: readonly ResourceEntry[];
  state: ReadonlyMap<string, AppliedResource>;
  /** Assistants and knowledge bases as listed now (the spec has no dialer list). */
  live: Record<"assistant" | "knowledgeBase", readonly LiveRecord[]>;
  /** Record ids something still uses, and what: "job leads", "campaign 42 (running)". */
  inUse: ReadonlyMap<string, string>;
  prune: boolean;
  /** Update every dialer even when its file is unchanged: a rotated secret is not in the hash. */
  resendSecrets?: boolean;
}

/** Each declared resource's content hash; an assistant's covers the knowledge base it names. */
export function hashesOf(declared: readonly ResourceEntry[]): Map<string, string> {
  const hashes = new Map<string, string>();
  for (const kind of RESOURCE_KINDS) {
    for (const r of declared.filter((d) => d.kind === kind)) {
      const ref = r.spec.knowledge_base_Id;
      const spec =
        kind === "assistant" && ref && typeof ref === "object"
          ? {
              ...r.spec,
              knowledge_base_Id: {
                ...ref,
                hash: hashes.get(stateField("knowledgeBase", (ref as { resource: string }).resource)),
              },
            }
          : r.spec;
      hashes.set(stateField(kind, r.name), contentHash(kind, spec));
    }
  }
  return hashes;
}

/** What an apply would do, in the order it does it: knowledge bases, dialers, assistants, then removals. */
export function planResources(input: PlanInput): Step[] {
  const hashes = hashesOf(input.declared);
  const steps: Step[] = [];
  for (const kind of RESOURCE_KINDS) {
    for (const r of input.declared.filter((d) => d.kind === kind)) {
      const field = stateField(kind, r.name);
      steps.push(stepFor(r, hashes.get(field)!, input.state.get(field), input));
    }
  }
  const declared = new Set(input.declared.map((d) => stateField(d.kind, d.name)));
  const removed = [...input.state.entries()].filter(([f]) => !declared.has(f)).map(([, s]) => s);
  for (const kind of [...RESOURCE_KINDS].reverse()) {
    for (const s of removed.filter((r) => r.kind === kind)) steps.push(removalOf(s));
  }
  decideDeletions(steps, input);
  return steps;
}

function stepFor(r: ResourceEntry, hash: string, prev: AppliedResource | undefined, input: PlanInput): Step {
  const base = {
    kind: r.kind,
    name: r.name,
    hash,
    diff: prev ? fieldDiff(prev.spec, r.spec) : [],
    deletions: [],
  };
  if (r.kind === "dialer") {
    if (!prev?.id)
      return {
        ...base,
        action: "create",
        recordName: r.name,
        ...(prev?.pending ? { reason: "a create was sent and its answer lost: see --adopt" } : {}),
      };
    if (prev.hash !== hash) return { ...base, recordName: r.name, action: "update" };
    if (input.resendSecrets)
      return { ...base, recordName: r.name, action: "update", reason: "secrets re-sent" };
    return { ...base, recordName: r.name, action: "unchanged" };
  }
  const recordName = versionName(r.name, hash);
  const live = input.live[r.kind];
  const step: Step = { ...base, recordName, action: "unchanged" };
  if (prev?.hash === hash && prev.id && live.some((l) => l.id === prev.id)) return step;
  // A record already named as the version to make (an apply cut short, a lost answer): taken, not made again.
  const adopt = live.find((l) => l.name === recordName)?.id;
  if (adopt) step.adopt = adopt;
  if (prev?.hash === hash) return { ...step, action: "create", reason: "deleted on the service" };
  if (!prev) return { ...step, action: "create" };
  return { ...step, action: "replace" };
}

function removalOf(s: AppliedResource): Step {
  return {
    kind: s.kind,
    name: s.name,
    action: "delete",
    diff: [],
    deletions: [],
    ...(s.kind === "dialer"
      ? { reason: "the spec has no dialer delete: the record stays on the service, vcw forgets it (--prune)" }
      : {}),
  };
}

/** Old versions, and every version of a removed resource: deleted with --prune when nothing uses them. */
function decideDeletions(steps: Step[], input: PlanInput): void {
  const kept = new Map<string, string>(input.inUse);
  for (const kind of ["assistant", "knowledgeBase"] as const) {
    for (const step of steps.filter((s) => s.kind === kind)) {
      const prev = input.state.get(stateField(kind, step.name));
      const current =
        step.action === "delete" ? undefined : step.action === "unchanged" ? prev?.id : step.adopt;
      step.deletions = (prev?.versions ?? [])
        .filter((v) => v.id !== current)
        .map((v) => deletion(v, kept, input.prune));
      // A knowledge base stays while an assistant version that stays names it.
      for (const v of prev?.versions ?? []) {
        const deleted = step.deletions.some((d) => d.id === v.id && !d.keptBecause);
        const kb = v.body.knowledge_base_Id;
        if (kind === "assistant" && !deleted && typeof kb === "string" && !kept.has(kb))
          kept.set(kb, `assistant ${v.recordName}`);
      }
    }
  }
  // A dialer has no versions: it is forgotten whole, unless a job still names it (its next campaign would have none).
  for (const step of steps.filter((s) => s.kind === "dialer" && s.action === "delete")) {
    const id = input.state.get(stateField("dialer", step.name))?.id ?? "";
    const use = id ? input.inUse.get(id) : undefined;
    step.deletions = use
      ? [{ id, recordName: step.name, keptBecause: `used by ${use}` }]
      : input.prune
        ? []
        : [{ id: "", recordName: step.name, keptBecause: "run with --prune to forget it" }];
  }
}

function deletion(
  v: { id: string; recordName: string },
  inUse: ReadonlyMap<string, string>,
  prune: boolean,
): PlannedDeletion {
  const use = inUse.get(v.id);
  if (use) return { id: v.id, recordName: v.recordName, keptBecause: `used by ${use}` };
  if (!prune) return { id: v.id, recordName: v.recordName, keptBecause: "run with --prune to delete it" };
  return { id: v.id, recordName: v.recordName };
}

export type { ResourceKind };
