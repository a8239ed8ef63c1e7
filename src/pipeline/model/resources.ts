import type { ResourceKind } from "../../config/resource-definition.ts";

/**
 * Resources as code: what `vcw apply` keeps in Redis of each resource it applied, and the plan it
 * makes. Types only.
 */

/** One record made on the service for a resource (an assistant or knowledge base is never updated). */
export interface AppliedVersion {
  id: string;
  hash: string;
  /** The record's name (`title` of a knowledge base): `NAME@HASH`, so a name finds its version. */
  recordName: string;
  /** What was sent to create it (no secret is ever part of an assistant or knowledge base). */
  body: Record<string, unknown>;
  createdAt: string;
}

export interface AppliedResource {
  kind: ResourceKind;
  name: string;
  /** The current version's content hash and id. */
  hash: string;
  id: string | undefined;
  /** The spec as written (secrets as `{ env }` references, pairs expanded): what the next diff compares. */
  spec: Record<string, unknown>;
  appliedAt: string;
  /** Every version not deleted yet, the current one included (none for dialers: updated in place). */
  versions: AppliedVersion[];
  /** A dialer create sent whose answer was lost: never sent again until the operator says (--adopt). */
  pending?: { hash: string; at: string };
}

export type Action = "create" | "replace" | "update" | "delete" | "unchanged";

export interface PlannedDeletion {
  id: string;
  recordName: string;
  /** Why it is kept (in use, or --prune not given); absent: it is deleted. */
  keptBecause?: string;
}

export interface Step {
  kind: ResourceKind;
  name: string;
  action: Action;
  /** Why, when it is not just the files: "deleted on the service", "not applied yet". */
  reason?: string;
  hash?: string;
  recordName?: string;
  /** Field changes, one readable line each; secrets by their variable's name only. */
  diff: string[];
  /** A record on the service already named as the version to create: taken instead of creating. */
  adopt?: string;
  /** Old versions (or all versions of a removed resource) to delete, or kept and why. */
  deletions: PlannedDeletion[];
}

export type DriftKind = "changed" | "deleted" | "unmanaged" | "unchecked";

export interface Drift {
  kind: ResourceKind;
  name: string;
  drift: DriftKind;
  id?: string;
  detail: string;
  diff?: string[];
}

export interface Plan {
  steps: Step[];
  drift: Drift[];
}

export const stateField = (kind: ResourceKind, name: string) => `${kind}/${name}`;
