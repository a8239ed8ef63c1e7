import { chunksOf } from "../../lib/chunks.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { defineScript } from "../../lib/scripts.ts";

export type ConsentKind = "express" | "written";

/** One consent as a file gave it: kept per number and named by each audit record relying on it. */
export interface ConsentRecord {
  /** When it was given (epoch ms). */
  givenAt: number;
  kind: ConsentKind;
  source?: string;
  /** SHA-256 of the form or script text (the text itself is not kept), or the hash the file gave. */
  textHash?: string;
  seller?: string;
  /** Third-party evidence of a form session (TrustedForm certificate URL, Jornaya LeadiD token). */
  trustedForm?: string;
  leadId?: string;
  /** Where it came from: the file (its name) and data row. */
  file: string;
  row: number;
}

/** What vcw knows of one number's consent: the newest one given, and the latest revocation. */
export interface NumberConsent {
  consent?: ConsentRecord;
  /** When the revocation was received (epoch ms), and by which way (a call, a file, the CLI, the operator). */
  revokedAt?: number;
  revokedVia?: string;
}

/**
 * Sets a time field and its data field unless the kept time is as late: the consent given at the
 * later time, the revocation received last. One script per number.
 */
const keepLater = defineScript<number>(
  "consent_keep_later",
  1,
  `local current = redis.call('HGET', KEYS[1], ARGV[1])
if current and tonumber(current) >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
return 1`,
);

/**
 * Consent per number, across jobs: one hash per number under a digest of it. Never expires: a
 * revocation must outlive every campaign (decision 0067); `vcw suppress remove` is the operator's
 * way back, as for any opt-out.
 */
export function createConsentStore(redis: RedisClient, keys: RedisKeys) {
  return {
    /** Keeps `record` unless a consent given later is kept already. */
    async record(phone: string, record: ConsentRecord): Promise<boolean> {
      const args = ["givenAt", record.givenAt, "consent", JSON.stringify(record)];
      return (await keepLater(redis, [keys.consent(phone)], args)) === 1;
    },

    /** Revokes each number's consent at `at` (received then), by `via`: 1,000 scripts in flight at most. */
    async revoke(phones: readonly string[], at: number, via: string): Promise<void> {
      const args = ["revokedAt", at, "revokedVia", via];
      for (const part of chunksOf(phones))
        await Promise.all(part.map((p) => keepLater(redis, [keys.consent(p)], args)));
    },

    /** What is kept of each of `phones` (absent: nothing). */
    async read(phones: readonly string[]): Promise<Map<string, NumberConsent>> {
      const found = await Promise.all(phones.map((p) => redis.hgetall(keys.consent(p))));
      const out = new Map<string, NumberConsent>();
      found.forEach((h, i) => {
        if (!h.consent && !h.revokedAt) return;
        out.set(phones[i]!, {
          ...(h.consent ? { consent: JSON.parse(h.consent) as ConsentRecord } : {}),
          ...(h.revokedAt ? { revokedAt: Number(h.revokedAt), revokedVia: h.revokedVia ?? "" } : {}),
        });
      });
      return out;
    },
  };
}

export type ConsentStore = ReturnType<typeof createConsentStore>;
