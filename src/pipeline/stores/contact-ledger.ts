import { chunksOf } from "../../lib/chunks.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { defineScript, LUA_NOW_MS, luaFile } from "../../lib/scripts.ts";

/**
 * Per-segment ledger of contacts sent to the service, keyed by E.164 phone, in a Redis hash:
 * `d` = the service has it (`d|<creator>`: created by that file's import); `p|<owner>|<ms>|<sent>` =
 * claimed by an import attempt, alive at `ms` (renewed at each send and while it waits for the
 * gate), its create last sent at `sent` (empty: never sent). Times are Redis' clock, so workers on
 * machines whose clocks differ agree.
 * The ledger is what makes imports exactly-once without idempotency keys: a create leaves only
 * while its claim is held (`fence`), and one whose outcome is unknown is sent again only after a
 * listing taken `settleMs` after it was sent (`takeOver`).
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

/**
 * Lua: a claim's owner, last sign of life and last send (nil: never sent); a claim of before issue 28
 * counts as sent when claimed. Shared by the scripts that read a claim, as their `{{PARSE_CLAIM}}`.
 */
const PARSE_CLAIM = luaFile(import.meta.url, "lua/ledger-parse-claim.lua").trimEnd();

/** The ledger's own field: phones are E.164 (`+...`), so it never names a contact. */
const SEEDED = "#seeded";

/**
 * A script of lua/ledger-<file>.lua, with Redis' clock, the claim parser and the seeded field: the
 * very texts (and SHA1s) of the scripts once inline, blank first lines of release and seed included.
 */
const ledgerLua = (file: string) =>
  luaFile(import.meta.url, `lua/ledger-${file}.lua`, { LUA_NOW_MS, PARSE_CLAIM, SEEDED });

const claim = defineScript<ClaimResult>("ledger_claim2", 1, ledgerLua("claim"));

/** `claim` for each phone (ARGV[3..]) in one script: one round trip for a batch of rows read ahead. */
const claimMany = defineScript<ClaimResult[]>("ledger_claim_many", 1, ledgerLua("claim-many"));

/**
 * The check at the moment of sending: the claim is still this owner's (1: renewed, its send time
 * stamped now), taken by another or done (0), or the ledger was lost with Redis (-1: not seeded).
 * First marks ARGV[4..] done as ARGV[3] (creates of this attempt already answered): their done
 * marks ride on the next send's fence instead of a round trip each.
 */
const fence = defineScript<number>("ledger_fence2", 1, ledgerLua("fence"));

/** Keeps a claim alive (its send time unchanged) while it waits to be sent. */
const renew = defineScript<number>("ledger_renew", 1, ledgerLua("renew"));

/**
 * Takes a claim over to send it again: 1 if it is this owner's or stale, and its last send (if
 * any) was settled when the listing that didn't show it began (ARGV[4], Redis ms); -1 if not yet
 * settled; 0 if done or held by a live attempt.
 */
const takeOver = defineScript<number>("ledger_take_over2", 1, ledgerLua("take-over"));

/** Milliseconds until the last send among these claims has settled (0: all settled or never sent). */
const settleWait = defineScript<number>("ledger_settle_wait", 1, ledgerLua("settle-wait"));

/** Releases a claim (the send certainly failed), only if this attempt still holds it. */
const release = defineScript<number>("ledger_release", 1, ledgerLua("release"));

/** Marks listed phones done, keeping who created those already done. */
const seedScript = defineScript<number>("ledger_seed", 1, ledgerLua("seed"));

export interface ContactLedger {
  claim(segmentId: string, phone: string, owner: string): Promise<ClaimResult>;
  /** `claim` of each of `phones` (distinct), in one round trip; the results in their order. */
  claimMany(segmentId: string, phones: readonly string[], owner: string): Promise<ClaimResult[]>;
  /**
   * Takes a claim over to send it again, given a listing (begun at `listedAt`, Redis ms: see `now`)
   * that doesn't show the phone: "sent" if it may be sent now, "unsettled" if its last send may
   * still land, "held" if it is done or a live attempt holds it.
   */
  takeOver(
    segmentId: string,
    phone: string,
    owner: string,
    listedAt: number,
  ): Promise<"sent" | "unsettled" | "held">;
  /**
   * The check at the moment of sending (see `fence` above): "owned" (renewed, send time stamped),
   * "lost", "wiped". `done` (phones whose creates were answered) are marked done first, as by
   * `markDone(segmentId, done, creator)`, in the same round trip.
   */
  fence(
    segmentId: string,
    phone: string,
    owner: string,
    done?: readonly string[],
    creator?: string,
  ): Promise<"owned" | "lost" | "wiped">;
  /** Keeps a claim alive while it waits to be sent; false if it isn't this owner's any more. */
  renew(segmentId: string, phone: string, owner: string): Promise<boolean>;
  /** Milliseconds until the last sends of these phones' claims can no longer land. */
  settleWait(segmentId: string, phones: readonly string[]): Promise<number>;
  /** Redis' clock (ms): stamp a listing with it before it is asked for. */
  now(): Promise<number>;
  /** How long after its send a create whose answer was lost may still land (0 with idempotency keys). */
  readonly settleMs: number;
  readonly leaseMs: number;
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

/** A done entry: `d|<creator>`, or `d` when nobody is named. */
const doneMark = (creator: string | undefined) => (creator ? `d|${creator}` : "d");

export interface LedgerOptions {
  keys: RedisKeys;
  /** How long a claim protects a contact before other attempts may reconcile it. */
  leaseMs: number;
  /**
   * How long after its send a create whose answer was lost may still be applied: it is sent again
   * only after a listing begun this long after. 0 when creates carry idempotency keys.
   */
  settleMs?: number;
  /**
   * How long a ledger lives after its segment's last import. Once it expires, the next import
   * seeds it again from the service: the retention bounds memory, never exactly-once.
   */
  retentionMs?: number;
}

export function createContactLedger(redis: RedisClient, options: LedgerOptions): ContactLedger {
  const key = options.keys.ledger;
  const lease = options.leaseMs;
  const settleMs = options.settleMs ?? 60_000;
  return {
    settleMs,
    leaseMs: lease,
    claim: (segmentId, phone, owner) => claim(redis, [key(segmentId)], [phone, owner, lease]),
    async claimMany(segmentId, phones, owner) {
      const out: ClaimResult[] = [];
      for (const part of chunksOf(phones))
        out.push(...(await claimMany(redis, [key(segmentId)], [owner, lease, ...part])));
      return out;
    },
    async takeOver(segmentId, phone, owner, listedAt) {
      const r = await takeOver(redis, [key(segmentId)], [phone, owner, lease, listedAt, settleMs]);
      return r === 1 ? "sent" : r === -1 ? "unsettled" : "held";
    },
    async fence(segmentId, phone, owner, done = [], creator) {
      const r = await fence(redis, [key(segmentId)], [phone, owner, doneMark(creator), ...done]);
      return r === 1 ? "owned" : r === -1 ? "wiped" : "lost";
    },
    renew: async (segmentId, phone, owner) => (await renew(redis, [key(segmentId)], [phone, owner])) === 1,
    settleWait: async (segmentId, phones) =>
      phones.length === 0 ? 0 : Math.max(0, await settleWait(redis, [key(segmentId)], [settleMs, ...phones])),
    async now() {
      const [s, us] = await redis.time();
      return Number(s) * 1000 + Math.floor(Number(us) / 1000);
    },
    async markDone(segmentId, phones, creator) {
      if (phones.length === 0) return;
      const done = doneMark(creator);
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
