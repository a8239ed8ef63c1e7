import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { defineScript, LUA_NOW_MS } from "../../lib/scripts.ts";

/**
 * Per-segment ledger of contacts sent to the service, keyed by E.164 phone, in a Redis hash:
 * `d` = the service has it (`d|<creator>`: created by that file's import); `p|<owner>|<ms>` =
 * claimed by an import attempt that may be sending it.
 * The ledger is what makes imports exactly-once without idempotency keys.
 */
export type ClaimResult =
  /** This attempt may send it. */
  | "claimed"
  /** The service already has it. */
  | "done"
  /** Another live attempt is on it. */
  | "busy"
  /** Claimed by an attempt that went quiet past the lease: the service may or may not have it. */
  | "stale";

// Claims are stamped with Redis' clock, so workers on machines whose clocks differ agree on the lease.
const claim = defineScript<ClaimResult>(
  "ledger_claim",
  1,
  `${LUA_NOW_MS}
local v = redis.call('HGET', KEYS[1], ARGV[1])
if not v then
  redis.call('HSET', KEYS[1], ARGV[1], 'p|' .. ARGV[2] .. '|' .. now_ms)
  return 'claimed'
end
if string.sub(v, 1, 1) == 'd' then return 'done' end
local owner, ts = string.match(v, '^p|(.*)|(%d+)$')
if owner == ARGV[2] then return 'claimed' end
if now_ms - tonumber(ts) > tonumber(ARGV[3]) then return 'stale' end
return 'busy'
`,
);

/** Takes over a stale claim, only if it is still stale (another attempt may have taken it first). */
const takeOver = defineScript<number>(
  "ledger_take_over",
  1,
  `${LUA_NOW_MS}
local v = redis.call('HGET', KEYS[1], ARGV[1])
if not v then
  redis.call('HSET', KEYS[1], ARGV[1], 'p|' .. ARGV[2] .. '|' .. now_ms)
  return 1
end
local owner, ts = string.match(v, '^p|(.*)|(%d+)$')
if not ts then return 0 end
if owner == ARGV[2] or now_ms - tonumber(ts) > tonumber(ARGV[3]) then
  redis.call('HSET', KEYS[1], ARGV[1], 'p|' .. ARGV[2] .. '|' .. now_ms)
  return 1
end
return 0
`,
);

/** Releases a claim (the send certainly failed), only if this attempt still holds it. */
const release = defineScript<number>(
  "ledger_release",
  1,
  `
local v = redis.call('HGET', KEYS[1], ARGV[1])
if v and string.match(v, '^p|(.*)|') == ARGV[2] then redis.call('HDEL', KEYS[1], ARGV[1]) return 1 end
return 0
`,
);

/** Marks listed phones done, keeping who created those already done. */
const seedScript = defineScript<number>(
  "ledger_seed",
  1,
  `
for _, phone in ipairs(ARGV) do
  local v = redis.call('HGET', KEYS[1], phone)
  if not v or string.sub(v, 1, 1) ~= 'd' then redis.call('HSET', KEYS[1], phone, 'd') end
end
return #ARGV
`,
);

export interface ContactLedger {
  claim(segmentId: string, phone: string, owner: string): Promise<ClaimResult>;
  takeOver(segmentId: string, phone: string, owner: string): Promise<boolean>;
  /** The service has these; `creator` (a file's identity) says who created them. */
  markDone(segmentId: string, phones: readonly string[], creator?: string): Promise<void>;
  /** The phones `creator` created in the segment: a file's new contacts. */
  createdBy(segmentId: string, creator: string): Promise<string[]>;
  /** Every phone the ledger has for the segment (created or being created), a batch at a time; one may come twice. */
  members(segmentId: string): AsyncGenerator<string[]>;
  release(segmentId: string, phone: string, owner: string): Promise<void>;
  /** Counts of done and claimed entries. */
  stats(segmentId: string): Promise<{ done: number; claimed: number }>;
  /** Whether the service has `phone` (as far as the ledger knows). */
  isDone(segmentId: string, phone: string): Promise<boolean>;
  /** Whether the ledger knows what the service had when it was started (see `seed`). */
  isSeeded(segmentId: string): Promise<boolean>;
  /** Marks the segment's contacts listed by the service as done, and the ledger as seeded. */
  seed(segmentId: string, phones: readonly string[]): Promise<void>;
  /** The segment is being imported into: its ledger lives the retention period from now. */
  touch(segmentId: string): Promise<void>;
}

/** The ledger's own field: phones are E.164 (`+...`), so it never names a contact. */
const SEEDED = "#seeded";

export interface LedgerOptions {
  keys: RedisKeys;
  /** How long a claim protects a contact before other attempts may reconcile it. */
  leaseMs: number;
  /**
   * How long a ledger lives after its segment's last import. Once it expires, the next import
   * seeds it again from the service: the retention bounds memory, never exactly-once.
   */
  retentionMs?: number;
}

export function createContactLedger(redis: RedisClient, options: LedgerOptions): ContactLedger {
  const key = options.keys.ledger;
  const lease = options.leaseMs;
  return {
    claim: (segmentId, phone, owner) => claim(redis, [key(segmentId)], [phone, owner, lease]),
    takeOver: async (segmentId, phone, owner) =>
      (await takeOver(redis, [key(segmentId)], [phone, owner, lease])) === 1,
    async markDone(segmentId, phones, creator) {
      if (phones.length === 0) return;
      const done = creator ? `d|${creator}` : "d";
      await redis.hset(key(segmentId), Object.fromEntries(phones.map((p) => [p, done])));
    },
    async createdBy(segmentId, creator) {
      const mark = `d|${creator}`;
      const phones: string[] = [];
      let cursor = "0";
      do {
        const [next, flat] = await redis.hscan(key(segmentId), cursor, "COUNT", 1000);
        cursor = next;
        for (let i = 0; i < flat.length; i += 2) if (flat[i + 1] === mark) phones.push(flat[i]!);
      } while (cursor !== "0");
      return phones;
    },
    async *members(segmentId) {
      let cursor = "0";
      do {
        const [next, flat] = await redis.hscan(key(segmentId), cursor, "COUNT", 1000);
        cursor = next;
        const phones: string[] = [];
        for (let i = 0; i < flat.length; i += 2) if (flat[i] !== SEEDED) phones.push(flat[i]!);
        if (phones.length > 0) yield phones;
      } while (cursor !== "0");
    },
    async release(segmentId, phone, owner) {
      await release(redis, [key(segmentId)], [phone, owner]);
    },
    async stats(segmentId) {
      const all = await redis.hgetall(key(segmentId));
      delete all[SEEDED];
      const values = Object.values(all);
      const done = values.filter((v) => v.startsWith("d")).length;
      return { done, claimed: values.length - done };
    },
    isDone: async (segmentId, phone) => (await redis.hget(key(segmentId), phone))?.startsWith("d") === true,
    isSeeded: async (segmentId) => (await redis.hexists(key(segmentId), SEEDED)) === 1,
    async seed(segmentId, phones) {
      for (let i = 0; i < phones.length; i += 1_000)
        await seedScript(redis, [key(segmentId)], phones.slice(i, i + 1_000));
      await redis.hset(key(segmentId), SEEDED, String(Date.now()));
    },
    async touch(segmentId) {
      await redis.pexpire(key(segmentId), options.retentionMs ?? 30 * 86_400_000);
    },
  };
}
