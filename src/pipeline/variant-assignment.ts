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
}

const OPEN: AssignmentState = { stopped: new Set() };

/** A number in [0, 1) from a SHA-256 of the parts: the same on every machine, run and file. */
function unitHash(...parts: string[]): number {
  const digest = createHash("sha256").update(parts.join("\u0000")).digest();
  // 48 bits: exact in a double, far finer than any share.
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/** The variant whose slice of the cumulative shares holds `u`. */
function bySlice(variants: readonly VariantShare[], u: number): string {
  const total = variants.reduce((sum, v) => sum + v.share, 0);
  let upTo = 0;
  for (const v of variants) {
    upTo += v.share / total;
    if (u < upTo) return v.name;
  }
  return variants[variants.length - 1]!.name;
}

/**
 * A contact's variant: a stable hash of the job and its E.164 number placed on the variants'
 * cumulative shares, so a re-imported, followed-up or resumed contact keeps it. A contact whose
 * variant was stopped goes to the promoted one, else is drawn again among those still open (the
 * others keep theirs: stopping one variant moves nobody else).
 */
export function variantOf(
  job: string,
  phone: string,
  variants: readonly VariantShare[],
  state: AssignmentState = OPEN,
): string {
  if (variants.length === 0) throw new Error("variantOf needs at least one variant");
  const first = bySlice(variants, unitHash("variant", job, phone));
  if (state.promoted) return state.promoted;
  if (!state.stopped.has(first)) return first;
  const open = variants.filter((v) => !state.stopped.has(v.name));
  // Every variant stopped: the decisions refuse this, but a hand-edited state must not lose contacts.
  if (open.length === 0) return first;
  return bySlice(open, unitHash("variant-again", job, phone));
}

/** Phones grouped by variant, in the variants' order, each group in the phones' order; empty groups left out. */
export function splitByVariant(
  job: string,
  phones: readonly string[],
  variants: readonly VariantShare[],
  state: AssignmentState = OPEN,
): { variant: string; phones: string[] }[] {
  const groups = new Map<string, string[]>(variants.map((v) => [v.name, []]));
  for (const phone of phones) groups.get(variantOf(job, phone, variants, state))!.push(phone);
  return [...groups]
    .filter(([, list]) => list.length > 0)
    .map(([variant, list]) => ({ variant, phones: list }));
}
