import { chunksOf } from "../../lib/chunks.ts";
import { sendPerKey } from "../../lib/per-key.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { defineScript, luaFile } from "../../lib/scripts.ts";

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

/**
 * The slot a consent is kept in: its seller's name trimmed, inner spaces collapsed, lower case; ""
 * for a consent naming no seller. Two names in the same slot are the same seller. Pure.
 */
export const sellerSlot = (seller: string | undefined): string =>
  (seller ?? "").trim().replace(/\s+/g, " ").toLowerCase();

/**
 * The hash fields of one seller's consent of one kind: consent@<slot>#<kind> and its givenAt@...
 * (a seller's later verbal consent does not replace its written one). Pure.
 */
const fieldsOf = (c: ConsentRecord) => {
  const slot = `${sellerSlot(c.seller)}#${c.kind}`;
  return { givenAt: `givenAt@${slot}`, consent: `consent@${slot}` };
};

/**
 * What vcw knows of one number's consent: the newest one kept per seller and kind, the newest of
 * all, and the latest revocation (the consumer's: it voids the consent of every seller given before it).
 */
export interface NumberConsent {
  /** The newest consent given, whatever its seller (what a reader before consents per seller kept). */
  consent?: ConsentRecord;
  /** The newest consent of each seller and kind (one without a seller in a slot of its own), newest first. */
  consents: ConsentRecord[];
  /** When the revocation was received (epoch ms), and by which way (a call, a file, the CLI, the operator). */
  revokedAt?: number;
  revokedVia?: string;
}

/**
 * Sets a time field and its data field unless the kept time is as late: a seller's consent of a
 * kind given at the later time, the revocation received last. One script per number.
 */
const keepLater = defineScript<number>(
  "consent_keep_later",
  1,
  luaFile(import.meta.url, "lua/consent-keep-later.lua"),
);

/**
 * A number's hash as read: each seller's consent of each kind (the fields per seller and kind, and
 * the one `consent` field a worker before consents per seller wrote, newest wins, read in its
 * seller's and kind's slot when newer: a rolling deploy), the newest of all, the revocation.
 * Undefined when nothing is kept. Pure.
 */
export function numberConsentOf(h: Record<string, string>): NumberConsent | undefined {
  const bySlot = new Map<string, ConsentRecord>();
  const keep = (c: ConsentRecord) => {
    const slot = fieldsOf(c).consent;
    const kept = bySlot.get(slot);
    if (!kept || kept.givenAt < c.givenAt) bySlot.set(slot, c);
  };
  for (const [field, value] of Object.entries(h))
    if (field === "consent" || field.startsWith("consent@")) keep(JSON.parse(value) as ConsentRecord);
  const consents = [...bySlot.values()].sort((a, b) => b.givenAt - a.givenAt);
  if (consents.length === 0 && !h.revokedAt) return undefined;
  return {
    ...(consents[0] ? { consent: consents[0] } : {}),
    consents,
    ...(h.revokedAt ? { revokedAt: Number(h.revokedAt), revokedVia: h.revokedVia ?? "" } : {}),
  };
}

/**
 * Consent per number and seller, across jobs: one hash per number under a digest of it (the key
 * never names the number), a field pair per seller and kind (decision 0067). Never expires: a revocation
 * must outlive every campaign; `vcw suppress remove` is the operator's way back, as for any opt-out.
 */
export function createConsentStore(redis: RedisClient, keys: RedisKeys) {
  return {
    /**
     * Keeps `record` in its seller's and kind's slot unless one of that seller and kind given
     * later is kept already. The old `consent` field is left as an older worker wrote it (read,
     * never written: an older worker in a rolling deploy sees only its own, and fails closed).
     */
    async record(phone: string, record: ConsentRecord): Promise<boolean> {
      const f = fieldsOf(record);
      const args = [f.givenAt, record.givenAt, f.consent, JSON.stringify(record)];
      return (await keepLater(redis, [keys.consent(phone)], args)) === 1;
    },

    /** Revokes each number's consent, every seller's, at `at` (received then), by `via`: 1,000 scripts in flight at most. */
    async revoke(phones: readonly string[], at: number, via: string): Promise<void> {
      const args = ["revokedAt", at, "revokedVia", via];
      for (const part of chunksOf(phones))
        await Promise.all(part.map((p) => keepLater(redis, [keys.consent(p)], args)));
    },

    /** What is kept of each of `phones` (absent: nothing): one HGETALL each, sent together (lib/per-key.ts). */
    async read(phones: readonly string[]): Promise<Map<string, NumberConsent>> {
      const found = await sendPerKey<Record<string, string>>(
        redis,
        phones.map((p) => ["hgetall", keys.consent(p)]),
      );
      const out = new Map<string, NumberConsent>();
      found.forEach((h, i) => {
        const kept = numberConsentOf(h);
        if (kept) out.set(phones[i]!, kept);
      });
      return out;
    },
  };
}

export type ConsentStore = ReturnType<typeof createConsentStore>;
