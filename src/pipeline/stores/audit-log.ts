import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { defineScript, luaFile } from "../../lib/scripts.ts";

/** One decision on one contact: called (a call the service reports) or refused, and the facts behind it. */
export interface AuditEntry {
  /** When the decision was recorded (epoch ms). */
  at: number;
  decision: "called" | "refused";
  /** E.164, whole: the trail must name the person; every display masks it. */
  phone: string;
  job: string;
  campaign?: string;
  /** The file the contact came from, and its row (a refusal's; a call's when known). */
  file?: string;
  row?: number;
  /** A refusal's code and words (the errors report's). */
  reason?: string;
  message?: string;
  /** What allowed the call: consent, rules, window, do-not-call lists, caps, variant. */
  facts?: Record<string, unknown>;
}

/**
 * How long the trail keeps an entry: 4 years and a day, past the TCPA's limitation period (28
 * U.S.C. 1658(a): 4 years for an action under a federal law of 1990 or later), whatever
 * VCW_RETENTION_DAYS keeps of campaigns (decision 0067).
 */
export const AUDIT_RETENTION_MS = (4 * 365 + 2) * 86_400_000;

/**
 * Appends each entry whose item its scope has not recorded yet (a retried poll or import adds
 * nothing twice), trimming entries past the retention. KEYS: stream, seen; ARGV: min id, seen ttl,
 * then item and entry pairs.
 */
const append = defineScript<number>("audit_append", 2, luaFile(import.meta.url, "lua/audit-append.lua"));

/** Entries read per XRANGE. */
const PAGE = 1_000;

/**
 * The audit trail: a Redis stream, append-only, one entry per contact decided, kept
 * AUDIT_RETENTION_MS; beside it, per scope, which items it holds (so each call has exactly one
 * entry), kept as long as the entries.
 */
export function createAuditLog(redis: RedisClient, keys: RedisKeys, o: { now?: () => number } = {}) {
  const now = o.now ?? Date.now;
  return {
    /** Appends `entries` of `scope`, each once per `item`; how many were new. */
    async append(scope: string, entries: readonly { item: string; entry: AuditEntry }[]): Promise<number> {
      if (entries.length === 0) return 0;
      const minId = String(Math.max(0, now() - AUDIT_RETENTION_MS));
      const args = [minId, AUDIT_RETENTION_MS, ...entries.flatMap((e) => [e.item, JSON.stringify(e.entry)])];
      return append(redis, [keys.audit, keys.auditSeen(scope)], args);
    },

    /** Entries recorded from `from` to `to` (epoch ms, both included), in order. */
    async *range(from: number, to: number): AsyncGenerator<AuditEntry> {
      let start = String(from);
      for (;;) {
        const page = await redis.xrange(keys.audit, start, String(to), "COUNT", PAGE);
        for (const [, fields] of page) yield JSON.parse(fields[1]!) as AuditEntry;
        if (page.length < PAGE) return;
        start = `(${page[page.length - 1]![0]}`;
      }
    },

    /** How many entries `scope` holds. */
    countOf: (scope: string): Promise<number> => redis.hlen(keys.auditSeen(scope)),

    /** How many entries `scope` holds, and the first `limit` of them. */
    async ofScope(scope: string, limit = 50): Promise<{ count: number; entries: AuditEntry[] }> {
      const ids = Object.values(await redis.hgetall(keys.auditSeen(scope))).filter((id) => id !== "");
      const sorted = ids.sort(compareIds).slice(0, limit);
      const read = await Promise.all(sorted.map((id) => redis.xrange(keys.audit, id, id)));
      const entries = read.flatMap((r) => r.map(([, f]) => JSON.parse(f[1]!) as AuditEntry));
      return { count: ids.length, entries };
    },
  };
}

/** Stream ids in order: time, then sequence. */
function compareIds(a: string, b: string): number {
  const [at, as] = a.split("-").map(Number);
  const [bt, bs] = b.split("-").map(Number);
  return at! - bt! || as! - bs!;
}

export type AuditLog = ReturnType<typeof createAuditLog>;
