import { createHash } from "node:crypto";

/** What assignment needs of a variant: its name and weight. */
export interface VariantShare {
  name: string;
  share: number;
}

/** Decisions that take variants out of assignment (`vcw experiment stop|promote`, the guardrail). */
export interface AssignmentState {
  /** Variants that get no new contacts. */
  stopped: ReadonlySet<string>;
  /** The one variant that gets every new contact. */
  promoted?: string | undefined;
  /** Contacts already given a variant (stores/experiment-store.ts): they keep it while it is open. */
  earlier?: ReadonlyMap<string, string> | undefined;
}

const OPEN: AssignmentState = { stopped: new Set() };

/** A number in (0, 1) from a SHA-256 of the parts: the same on every machine, run and file. */
function unitHash(...parts: string[]): number {
  const digest = createHash("sha256").update(parts.join("\u0000")).digest();
  // 48 bits, never 0 or 1: exact in a double, far finer than any share.
  return (digest.readUIntBE(0, 6) + 0.5) / 2 ** 48;
}

/**
 * The variant among `variants` with the highest weighted rendezvous score, share / −ln(u), u a
 * hash of the seed, the number and the variant's name (Schindelhauer and Schomaker 2005): each
 * variant wins with chance share / total, and the winner depends on no other variant's place in
 * the list. So reordering moves nobody; adding a variant moves only those it wins (its share);
 * removing one moves only its own; raising a share moves only those it now wins.
 */
function byRendezvous(seed: string, phone: string, variants: readonly VariantShare[]): string {
  let best = variants[0]!.name;
  let top = Number.NEGATIVE_INFINITY;
  for (const v of variants) {
    const score = v.share / -Math.log(unitHash("variant", seed, phone, v.name));
    if (score > top) [best, top] = [v.name, score];
  }
  return best;
}

/**
 * A contact's variant: by rendezvous on the experiment's seed (`campaign.experiment.name`, else the
 * job's name) and its E.164 number, so a re-imported, followed-up or resumed contact keeps it. A
 * contact given a variant before keeps it while that variant is open. A contact whose variant was
 * stopped goes to the promoted one, else to its best among those still open (the others keep
 * theirs: stopping one variant moves nobody else).
 */
export function variantOf(
  seed: string,
  phone: string,
  variants: readonly VariantShare[],
  state: AssignmentState = OPEN,
): string {
  if (variants.length === 0) throw new Error("variantOf needs at least one variant");
  if (state.promoted) return state.promoted;
  const open = variants.filter((v) => !state.stopped.has(v.name));
  const before = state.earlier?.get(phone);
  if (before !== undefined && open.some((v) => v.name === before)) return before;
  // Every variant stopped: the decisions refuse this, but a hand-edited state must not lose contacts.
  return byRendezvous(seed, phone, open.length > 0 ? open : variants);
}

/** Phones grouped by variant, in the variants' order, each group in the phones' order; empty groups left out. */
export function splitByVariant(
  seed: string,
  phones: readonly string[],
  variants: readonly VariantShare[],
  state: AssignmentState = OPEN,
): { variant: string; phones: string[] }[] {
  const groups = new Map<string, string[]>(variants.map((v) => [v.name, []]));
  for (const phone of phones) groups.get(variantOf(seed, phone, variants, state))!.push(phone);
  return [...groups]
    .filter(([, list]) => list.length > 0)
    .map(([variant, list]) => ({ variant, phones: list }));
}

/**
 * The planned campaign an assignment belongs to, and its follow-ups and hand-backs: the file's
 * content and generation, its zone or slot, its variant. The experiment's record of who was given
 * a variant is kept under it, and the report finds the campaigns made for it by it.
 */
export const assignmentKey = (c: {
  sha256: string;
  gen: number;
  zone?: string | undefined;
  slot?: string | undefined;
  variant?: string | undefined;
}) => `${c.sha256}:${c.gen}:${c.slot ?? c.zone ?? ""}:${c.variant ?? ""}`;
