import type { RedisClient } from "../../../lib/redis.ts";
import type { RedisKeys } from "../../../lib/redis-keys.ts";
import { countBits, emptyBits, encodeBlock, mergeInto, setBit } from "./block-codec.ts";
import { decodeSpan, encodeSpan } from "./span-codec.ts";
import { DEEPEST, NODES, nodeIndex, spanAt, tagOf } from "./tree-place.ts";

/**
 * Sorted, distinct rests (last seven digits) without copies: `of[lo..hi)` less `base` (a tag's
 * numbers in the sorted buffer), or an array of rests (base 0) a merge made.
 */
interface Rests {
  of: ArrayLike<number>;
  lo: number;
  hi: number;
  base: number;
}

const sizeOf = (r: Rests) => r.hi - r.lo;
const restAt = (r: Rests, i: number) => r.of[r.lo + i]! - r.base;
const toArray = (r: Rests) => Array.from({ length: sizeOf(r) }, (_, i) => restAt(r, i));
const restsOf = (values: readonly number[]): Rests => ({ of: values, lo: 0, hi: values.length, base: 0 });

/** A leaf above the block level holds at most this many numbers (3 KB): past it, it splits in ten. */
export const MAX_LEAF = 1_024;
const WRITE_BATCH = 256;
const LEVEL_OFFSET = [0, 1, 11, 111];

/**
 * Writes a list version as trees (tree-place.ts): numbers are gathered in a buffer of
 * `bufferNumbers` (8 bytes each), then sorted and written tag by tag, each range into the
 * shallowest leaf that holds it (at most MAX_LEAF numbers, or a block of 10^4 at the deepest
 * level: a bitmap or 2-byte suffixes, block-codec.ts). A tag written by an earlier flush is merged
 * leaf by leaf (read back, united, split when it grows past MAX_LEAF), so an extract in any order
 * loads in bounded memory; a sorted one (the FTC's) writes each leaf once. Each key is named in
 * the version's index before it is written; a leaf replaced by its children is deleted after them.
 */
export class TreeWriter {
  private readonly buffer: Float64Array;
  private size = 0;
  /** Each tag's stored leaves, a bit per node. */
  private readonly leaves = new Map<string, Uint8Array>();
  private sets: { member: string; key: string; value: Buffer }[] = [];
  private deletes: { member: string; key: string }[] = [];
  numbers = 0;
  blocks = 0;

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly version: string,
    bufferNumbers: number,
  ) {
    this.buffer = new Float64Array(Math.max(1, bufferNumbers));
  }

  /** Adds an E.164 number (validated by the caller). */
  async add(phone: string): Promise<void> {
    if (this.size === this.buffer.length) await this.flush();
    this.buffer[this.size] = Number(phone.slice(1));
    this.size += 1;
  }

  /** Writes every number held, merged with the leaves earlier flushes wrote. */
  async flush(): Promise<void> {
    const sorted = this.buffer.subarray(0, this.size).sort();
    // Each number once, in place.
    let unique = 0;
    for (let i = 0; i < sorted.length; i += 1)
      if (i === 0 || sorted[i] !== sorted[unique - 1]) sorted[unique++] = sorted[i]!;
    for (let i = 0; i < unique; ) {
      const group = Math.floor(sorted[i]! / 1e7);
      const length = String(sorted[i]).length;
      let j = i;
      while (j < unique && Math.floor(sorted[j]! / 1e7) === group) j += 1;
      const tag = tagOf(length, group === 0 ? "" : String(group));
      await this.place(tag, "r", { of: sorted, lo: i, hi: j, base: group * 1e7 });
      i = j;
    }
    await this.drain();
    this.size = 0;
  }

  /** Numbers of a node's range into the tree: merged into its leaf, passed to its children, or a new leaf. */
  private async place(tag: string, path: string, rests: Rests): Promise<void> {
    if (sizeOf(rests) === 0) return;
    const bits = this.leaves.get(tag);
    if (bits && has(bits, nodeIndex(path))) return this.merge(tag, path, rests);
    if (bits && anyBelow(bits, path)) {
      for (const [digit, part] of byDigit(rests, path.length - 1))
        await this.place(tag, `${path}${digit}`, part);
      return;
    }
    this.write(tag, path, rests);
  }

  /** A leaf written by an earlier flush, read back and united with `rests`. */
  private async merge(tag: string, path: string, rests: Rests): Promise<void> {
    const level = path.length - 1;
    const key = this.keys.dncBlock(this.version, tag, path);
    const stored = await this.redis.getBuffer(key);
    if (!stored) throw new Error(`do-not-call leaf ${tag}:${path} of version ${this.version} is gone`);
    const base = path.length > 1 ? Number(path.slice(1)) * spanAt(level) : 0;
    if (level === DEEPEST) {
      const bits = emptyBits();
      mergeInto(bits, stored);
      const before = countBits(bits);
      for (let i = 0; i < sizeOf(rests); i += 1) setBit(bits, restAt(rests, i) % spanAt(DEEPEST));
      const after = countBits(bits);
      this.numbers += after - before;
      this.queueSet(tag, path, encodeBlock(bits, after)!);
      return;
    }
    const existing = decodeSpan(stored).map((v) => base + v);
    const merged = union(existing, toArray(rests));
    this.numbers -= existing.length;
    if (merged.length <= MAX_LEAF) {
      this.numbers += merged.length;
      this.queueSet(tag, path, encodeSpan(merged.map((r) => r % spanAt(level))));
      return;
    }
    // Too many for one leaf: its children take them, then it goes.
    this.clear(tag, path);
    this.blocks -= 1;
    this.deletes.push({ member: `${tag}:${path}`, key });
    this.write(tag, path, restsOf(merged));
  }

  /** A new subtree for `rests` at `path`: one leaf if it holds them, else its children's. */
  private write(tag: string, path: string, rests: Rests): void {
    const count = sizeOf(rests);
    if (count === 0) return;
    const level = path.length - 1;
    if (level < DEEPEST && count > MAX_LEAF) {
      for (const [digit, part] of byDigit(rests, level)) this.write(tag, `${path}${digit}`, part);
      return;
    }
    let value: Buffer;
    if (level === DEEPEST) {
      const bits = emptyBits();
      for (let i = 0; i < count; i += 1) setBit(bits, restAt(rests, i) % spanAt(DEEPEST));
      value = encodeBlock(bits, count)!;
    } else value = encodeSpan(Array.from({ length: count }, (_, i) => restAt(rests, i) % spanAt(level)));
    this.mark(tag, path);
    this.numbers += count;
    this.blocks += 1;
    this.queueSet(tag, path, value);
  }

  private queueSet(tag: string, path: string, value: Buffer): void {
    this.sets.push({ member: `${tag}:${path}`, key: this.keys.dncBlock(this.version, tag, path), value });
  }

  private mark(tag: string, path: string): void {
    const bits = this.leaves.get(tag) ?? new Uint8Array(Math.ceil(NODES / 8));
    this.leaves.set(tag, bits);
    const i = nodeIndex(path);
    bits[i >> 3]! |= 1 << (i & 7);
  }

  private clear(tag: string, path: string): void {
    const bits = this.leaves.get(tag)!;
    const i = nodeIndex(path);
    bits[i >> 3]! &= ~(1 << (i & 7));
  }

  /** Sends the writes queued: indexed first, then set; leaves replaced by their children last. */
  private async drain(): Promise<void> {
    for (let at = 0; at < this.sets.length; at += WRITE_BATCH) {
      const batch = this.sets.slice(at, at + WRITE_BATCH);
      await this.redis.sadd(this.keys.dncBlocks(this.version), ...batch.map((s) => s.member));
      await Promise.all(batch.map((s) => this.redis.set(s.key, s.value)));
    }
    this.sets = [];
    for (let at = 0; at < this.deletes.length; at += WRITE_BATCH) {
      const batch = this.deletes.slice(at, at + WRITE_BATCH);
      await Promise.all(batch.map((d) => this.redis.unlink(d.key)));
      await this.redis.srem(this.keys.dncBlocks(this.version), ...batch.map((d) => d.member));
    }
    this.deletes = [];
  }
}

const has = (bits: Uint8Array, i: number) => (bits[i >> 3]! & (1 << (i & 7))) !== 0;

/** Whether any node below `path` is a leaf. */
function anyBelow(bits: Uint8Array, path: string): boolean {
  const level = path.length - 1;
  const base = level === 0 ? 0 : Number(path.slice(1));
  for (let deeper = level + 1; deeper <= DEEPEST; deeper += 1) {
    const width = 10 ** (deeper - level);
    const from = LEVEL_OFFSET[deeper]! + base * width;
    for (let i = from; i < from + width; i += 1) if (has(bits, i)) return true;
  }
  return false;
}

/** Sorted rests of a node at `level`, split by their next digit: contiguous runs, no copies. */
function byDigit(rests: Rests, level: number): Map<number, Rests> {
  const out = new Map<number, Rests>();
  const unit = spanAt(level + 1);
  const digitAt = (i: number) => Math.floor(restAt(rests, i) / unit) % 10;
  for (let i = 0; i < sizeOf(rests); ) {
    const digit = digitAt(i);
    let j = i;
    while (j < sizeOf(rests) && digitAt(j) === digit) j += 1;
    out.set(digit, { ...rests, lo: rests.lo + i, hi: rests.lo + j });
    i = j;
  }
  return out;
}

/** Two sorted lists as one, each value once. */
function union(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
    if (out.at(-1) !== next) out.push(next);
  }
  return out;
}
