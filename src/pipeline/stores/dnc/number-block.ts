/**
 * Where a number lives in a do-not-call list: numbers are kept in blocks of 10,000 (all E.164
 * digits but the last four name the block, the last four are its `suffix`), and blocks are grouped
 * under a hash tag of 10^7 numbers (the block's name less its last three digits). For a NANP number
 * +1 NPA NXX XXXX the tag is `1NPA` (an area code) and the block `NXX` (an exchange). Pure.
 */
export interface NumberPlace {
  /** The Cluster hash tag's part: the block's first digits (at least one). */
  tag: string;
  /** The rest of the block's name. */
  block: string;
  /** The number's last four digits, 0..9999. */
  suffix: number;
}

/** Numbers a block holds. */
export const BLOCK_SIZE = 10_000;

const E164 = /^\+[1-9]\d{6,14}$/;

/** The place of an E.164 number, or undefined when `phone` isn't one. */
export function placeOf(phone: string): NumberPlace | undefined {
  if (!E164.test(phone)) return undefined;
  const digits = phone.slice(1);
  const name = digits.slice(0, -4);
  const cut = Math.max(1, name.length - 3);
  return { tag: name.slice(0, cut), block: name.slice(cut), suffix: Number(digits.slice(-4)) };
}

/** A block's whole name (tag and rest), the key of in-memory maps. */
export const blockName = (p: Pick<NumberPlace, "tag" | "block">) => `${p.tag}:${p.block}`;

/** The E.164 number at `suffix` of the block named `name` (its inverse). */
export function phoneAt(name: string, suffix: number): string {
  return `+${name.replace(":", "")}${String(suffix).padStart(4, "0")}`;
}
