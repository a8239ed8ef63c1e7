import type { Redis } from "ioredis";

/**
 * Per-segment ledger of contacts sent to the service, keyed by E.164 phone, in a Redis hash:
 * `d` = the service has it; `p|<owner>|<ms>` = claimed by an import attempt that may be sending it.
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

const CLAIM = `
local v = redis.call('HGET', KEYS[1], ARGV[1])
if not v then
  redis.call('HSET', KEYS[1], ARGV[1], 'p|' .. ARGV[2] .. '|' .. ARGV[3])
  return 'claimed'
end
if v == 'd' then return 'done' end
local owner, ts = string.match(v, '^p|(.*)|(%d+)$')
if owner == ARGV[2] then return 'claimed' end
if tonumber(ARGV[3]) - tonumber(ts) > tonumber(ARGV[4]) then return 'stale' end
return 'busy'
`;

/** Takes over a stale claim, only if it is still stale (another attempt may have taken it first). */
const TAKE_OVER = `
local v = redis.call('HGET', KEYS[1], ARGV[1])
if not v then
  redis.call('HSET', KEYS[1], ARGV[1], 'p|' .. ARGV[2] .. '|' .. ARGV[3])
  return 1
end
local owner, ts = string.match(v, '^p|(.*)|(%d+)$')
if not ts then return 0 end
if owner == ARGV[2] or tonumber(ARGV[3]) - tonumber(ts) > tonumber(ARGV[4]) then
  redis.call('HSET', KEYS[1], ARGV[1], 'p|' .. ARGV[2] .. '|' .. ARGV[3])
  return 1
end
return 0
`;

/** Releases a claim (the send certainly failed), only if this attempt still holds it. */
const RELEASE = `
local v = redis.call('HGET', KEYS[1], ARGV[1])
if v and string.match(v, '^p|(.*)|') == ARGV[2] then redis.call('HDEL', KEYS[1], ARGV[1]) return 1 end
return 0
`;

export interface ContactLedger {
  claim(segmentId: string, phone: string, owner: string, now: number): Promise<ClaimResult>;
  takeOver(segmentId: string, phone: string, owner: string, now: number): Promise<boolean>;
  markDone(segmentId: string, phones: readonly string[]): Promise<void>;
  release(segmentId: string, phone: string, owner: string): Promise<void>;
  /** Counts of done and claimed entries. */
  stats(segmentId: string): Promise<{ done: number; claimed: number }>;
}

export interface LedgerOptions {
  /** Key prefix; keep a hash tag (`{...}`) per segment for Redis Cluster. */
  prefix?: string;
  /** How long a claim protects a contact before other attempts may reconcile it. */
  leaseMs: number;
}

export function createContactLedger(redis: Redis, options: LedgerOptions): ContactLedger {
  const prefix = options.prefix ?? "vcw";
  const key = (segmentId: string) => `${prefix}:ledger:{${segmentId}}`;
  const lease = String(options.leaseMs);
  return {
    async claim(segmentId, phone, owner, now) {
      return (await redis.eval(CLAIM, 1, key(segmentId), phone, owner, String(now), lease)) as ClaimResult;
    },
    async takeOver(segmentId, phone, owner, now) {
      return (await redis.eval(TAKE_OVER, 1, key(segmentId), phone, owner, String(now), lease)) === 1;
    },
    async markDone(segmentId, phones) {
      if (phones.length === 0) return;
      await redis.hset(key(segmentId), Object.fromEntries(phones.map((p) => [p, "d"])));
    },
    async release(segmentId, phone, owner) {
      await redis.eval(RELEASE, 1, key(segmentId), phone, owner);
    },
    async stats(segmentId) {
      const values = await redis.hvals(key(segmentId));
      const done = values.filter((v) => v === "d").length;
      return { done, claimed: values.length - done };
    },
  };
}
