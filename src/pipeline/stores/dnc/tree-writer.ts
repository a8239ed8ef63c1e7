import type { RedisClient } from "../../../lib/redis.ts";
import type { RedisKeys } from "../../../lib/redis-keys.ts";
import { countBits, emptyBits, encodeBlock, mergeInto, setBit } from "./block-codec.ts";
import { decodeSpan, encodeSpan } from "./span-codec.ts";
import { DEEPEST, NODES, nodeIndex, spanAt, tagOf } from "./tree-place.ts";

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
    for (let i = 0; i < sorted.length; ) {
      const group = Math.floor(sorted[i]! / 1e7);
      const length = String(sorted[i]).length;
      const rests: number[] = [];
      for (; i < sorted.length && Math.floor(sorted[i]! / 1e7) === group; i += 1) {
        const rest = sorted[i]! - group * 1e7;
        if (rests.at(-1) !== rest) rests.push(rest);
      }
      await this.place(tagOf(length, group === 0 ? "" : String(group)), "r", rests);
    }
    await this.drain();
    this.size = 0;
  }

  /** Numbers of a node's range into the tree: merged into its leaf, passed to its children, or a new leaf. */
  private async place(tag: string, path: string, rests: number[]): Promise<void> {
    if (rests.length === 0) return;
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
  private async merge(tag: string, path: string, rests: number[]): Promise<void> {
    const level = path.length - 1;
    const key = this.keys.dncBlock(this.version, tag, path);
    const stored = await this.redis.getBuffer(key);
    if (!stored) throw new Error(`do-not-call leaf ${tag}:${path} of version ${this.version} is gone`);
    const base = path.length > 1 ? Number(path.slice(1)) * spanAt(level) : 0;
    if (level === DEEPEST) {
      const bits = emptyBits();
      mergeInto(bits, stored);
      const before = countBits(bits);
      for (const rest of rests) setBit(bits, rest % spanAt(DEEPEST));
      const after = countBits(bits);
      this.numbers += after - before;
      this.queueSet(tag, path, encodeBlock(bits, after)!);
      return;
    }
    const existing = decodeSpan(stored).map((v) => base + v);
    const merged = union(existing, rests);
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
    this.write(tag, path, merged);
  }

  /** A new subtree for `rests` at `path`: one leaf if it holds them, else its children's. */
  private write(tag: string, path: string, rests: number[]): void {
    if (rests.length === 0) return;
    const level = path.length - 1;
    if (level < DEEPEST && rests.length > MAX_LEAF) {
      for (const [digit, part] of byDigit(rests, level)) this.write(tag, `${path}${digit}`, part);
      return;
    }
    let value: Buffer;
    if (level === DEEPEST) {
      const bits = emptyBits();
      for (const rest of rests) setBit(bits, rest % spanAt(DEEPEST));
      value = encodeBlock(bits, rests.length)!;
    } else value = encodeSpan(rests.map((r) => r % spanAt(level)));
    this.mark(tag, path);
    this.numbers += rests.length;
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

/** Sorted rests of a node at `level`, split by their next digit. */
function byDigit(rests: readonly number[], level: number): Map<number, number[]> {
  const out = new Map<number, number[]>();
  const unit = spanAt(level + 1);
  for (const rest of rests) {
    const digit = Math.floor(rest / unit) % 10;
    const part = out.get(digit) ?? [];
    part.push(rest);
    out.set(digit, part);
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
