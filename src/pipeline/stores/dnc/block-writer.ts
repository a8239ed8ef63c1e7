import type { RedisClient } from "../../../lib/redis.ts";
import type { RedisKeys } from "../../../lib/redis-keys.ts";
import { BITMAP_BYTES, countBits, emptyBits, encodeBlock, mergeInto, setBit } from "./block-codec.ts";
import type { NumberPlace } from "./number-block.ts";
import { blockName } from "./number-block.ts";

const WRITE_BATCH = 256;

/**
 * Gathers a version's numbers block by block in memory, at most `maxBlocks` blocks at a time
 * (1,250 bytes each), and writes them out when full and at the end; a block written before is read
 * back and merged, so an extract in any order loads in bounded memory (a sorted one, as the FTC's
 * are, writes each block once).
 */
export class BlockWriter {
  private readonly pending = new Map<string, Uint8Array>();
  private written = false;
  numbers = 0;
  blocks = 0;

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly version: string,
    private readonly maxBlocks: number,
  ) {}

  async add(place: NumberPlace): Promise<void> {
    const name = blockName(place);
    let bits = this.pending.get(name);
    if (!bits) {
      if (this.pending.size >= this.maxBlocks) await this.flush();
      bits = emptyBits();
      this.pending.set(name, bits);
    }
    setBit(bits, place.suffix);
  }

  /** Writes every block held, merged with what an earlier flush wrote of it. */
  async flush(): Promise<void> {
    const names = [...this.pending.keys()];
    for (let at = 0; at < names.length; at += WRITE_BATCH) {
      const batch = names.slice(at, at + WRITE_BATCH);
      // Indexed before written: a crash leaves no block the index doesn't name.
      await this.redis.sadd(this.keys.dncBlocks(this.version), ...batch);
      await Promise.all(batch.map((name) => this.write(name, this.pending.get(name)!)));
    }
    this.pending.clear();
    this.written = true;
  }

  private async write(name: string, bits: Uint8Array): Promise<void> {
    const [tag, block] = name.split(":") as [string, string];
    const key = this.keys.dncBlock(this.version, tag, block);
    let before = 0;
    if (this.written) {
      const stored = await this.redis.getBuffer(key);
      if (stored) {
        before = stored.length === BITMAP_BYTES ? countBits(stored) : stored.length / 2;
        mergeInto(bits, stored);
      }
    }
    const count = countBits(bits);
    this.numbers += count - before;
    if (before === 0) this.blocks += 1;
    await this.redis.set(key, encodeBlock(bits, count)!);
  }
}
