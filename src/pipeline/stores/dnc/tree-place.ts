/**
 * Where a number lives in a do-not-call list laid out as a tree (the current layout). Each range
 * of 10^7 numbers (all E.164 digits but the last seven: for NANP +1 NPA NXX XXXX, an area code)
 * is a **tag**, a Cluster hash tag of its own; within it, a node covers the numbers whose last
 * seven digits start with its path (the root none, then one to three digits: 10^7 down to 10^4
 * numbers). Only leaves are stored; a leaf holds at most a bounded count (tree-writer.ts), so a
 * sparse list keeps a whole area code in one key and a dense one splits down to 10^4 blocks. A
 * number's leaf is one of its four ancestors: a lookup asks for all four at once. Pure.
 */

/** Levels below the tag's root: a leaf at level 3 is a block of 10^4 numbers. */
export const DEEPEST = 3;

export interface TreePlace {
  /** The range of 10^7: the digit count and the leading digits ("11.1212"). */
  tag: string;
  /** The last seven digits, as a number 0..9,999,999. */
  rest: number;
}

const E164 = /^\+[1-9]\d{6,14}$/;

/** The place of an E.164 number, or undefined when `phone` isn't one. */
export function treePlaceOf(phone: string): TreePlace | undefined {
  if (!E164.test(phone)) return undefined;
  const digits = phone.slice(1);
  return { tag: tagOf(digits.length, digits.slice(0, -7)), rest: Number(digits.slice(-7)) };
}

export const tagOf = (length: number, leading: string) => `${length}.${leading}`;

/** The path of the node at `level` above a number's last seven digits: "r", "r4", "r41", "r415". */
export const pathAt = (rest: number, level: number) => `r${String(rest).padStart(7, "0").slice(0, level)}`;

/** The four paths a number's leaf may be at, root first. */
export const pathsOf = (rest: number) => [0, 1, 2, 3].map((level) => pathAt(rest, level));

/** Numbers a node at `level` covers: its values are the last 7 - level digits. */
export const spanAt = (level: number) => 10 ** (7 - level);

/** Nodes of a tag: 1 + 10 + 100 + 1,000. */
export const NODES = 1_111;
const OFFSET = [0, 1, 11, 111];

/** A node's position among its tag's, from its path. */
export function nodeIndex(path: string): number {
  const level = path.length - 1;
  return OFFSET[level]! + (level === 0 ? 0 : Number(path.slice(1)));
}

/** The position of the node at `level` above a number's last seven digits. */
export const nodeOf = (rest: number, level: number) => OFFSET[level]! + Math.floor(rest / spanAt(level));

/** A node's path from its position. */
export function pathOfNode(node: number): string {
  const level = node >= 111 ? 3 : node >= 11 ? 2 : node >= 1 ? 1 : 0;
  return level === 0 ? "r" : `r${String(node - OFFSET[level]!).padStart(level, "0")}`;
}
