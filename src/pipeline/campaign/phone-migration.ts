import type { CountryCode } from "libphonenumber-js/max";
import { e164OfServicePhone } from "../../lib/phone-e164.ts";
import { isCluster, type RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";

const E164 = /^\+[1-9]\d{6,14}$/;

export interface PhoneMigration {
  /** Entries moved to their E.164 form. */
  migrated: number;
  /** Entries left as written: no number, or a different one in different jobs' countries. */
  leftAsWritten: string[];
}

/**
 * The number `written` is, the same in every country of `countries` (a number without a country
 * code read in two jobs' countries may be two numbers: then it is left as written). Pure.
 */
export function e164InEvery(
  written: string,
  countries: readonly (CountryCode | undefined)[],
): string | undefined {
  const found = new Set(
    (countries.length ? countries : [undefined]).map((c) => e164OfServicePhone(written, c)),
  );
  const [only] = found;
  return found.size === 1 ? only : undefined;
}

/**
 * Once per deployment (a marker key), before workers start: suppression entries and call histories
 * that earlier versions wrote in the service's spelling (`(415) 555-0199`) are moved to the
 * number's E.164 form, so an opt-out read then still stops every later call. Repeatable: a crash
 * half way is finished by the next start.
 */
export async function migratePhoneSpellings(
  redis: RedisClient,
  keys: RedisKeys,
  countries: readonly (CountryCode | undefined)[],
): Promise<PhoneMigration | undefined> {
  const marker = keys.migration("phone-e164");
  if (await redis.exists(marker)) return undefined;
  const out: PhoneMigration = { migrated: 0, leftAsWritten: [] };
  await migrateSuppression(redis, keys, countries, out);
  await migrateHistories(redis, keys, countries, out);
  await redis.set(marker, new Date().toISOString());
  return out;
}

async function migrateSuppression(
  redis: RedisClient,
  keys: RedisKeys,
  countries: readonly (CountryCode | undefined)[],
  out: PhoneMigration,
): Promise<void> {
  const odd: string[] = [];
  for await (const batch of redis.sscanStream(keys.suppressed, { count: 1_000 }))
    odd.push(...(batch as string[]).filter((p) => !E164.test(p)));
  for (const written of odd) {
    const e164 = e164InEvery(written, countries);
    if (!e164) {
      out.leftAsWritten.push(written);
      continue;
    }
    // Added before removed: a crash in between leaves both, and the next start removes the other.
    await redis.sadd(keys.suppressed, e164);
    await redis.srem(keys.suppressed, written);
    out.migrated += 1;
  }
}

async function migrateHistories(
  redis: RedisClient,
  keys: RedisKeys,
  countries: readonly (CountryCode | undefined)[],
  out: PhoneMigration,
): Promise<void> {
  const head = keys.calls("");
  const match = `${head.slice(0, -2)}{*}`;
  const masters = isCluster(redis) ? redis.nodes("master") : [redis];
  for (const node of masters) {
    for await (const batch of node.scanStream({ match, count: 1_000 })) {
      for (const key of batch as string[]) {
        const written = key.slice(head.length - 1, -1);
        if (E164.test(written)) continue;
        const e164 = e164InEvery(written, countries);
        if (!e164) out.leftAsWritten.push(written);
        else if (await mergeHistory(redis, keys, written, e164)) out.migrated += 1;
      }
    }
  }
}

/** Folds the history of `written` into that of `e164` (the later call and outcome win), then drops it. */
async function mergeHistory(redis: RedisClient, keys: RedisKeys, written: string, e164: string) {
  const from = keys.calls(written);
  const to = keys.calls(e164);
  const [old, now, ttl] = await Promise.all([redis.hgetall(from), redis.hgetall(to), redis.pttl(from)]);
  if (Object.keys(old).length === 0) return false;
  const fields: Record<string, string> = {};
  // A mark of the merge on the target: a crash before the old key went never counts it twice.
  if (!now[`from:${written}`]) {
    fields[`from:${written}`] = "1";
    const attempts = Number(now.attempts ?? 0) + Number(old.attempts ?? 0);
    if (attempts > 0) fields.attempts = String(attempts);
  }
  if (Number(old.lastAt ?? 0) > Number(now.lastAt ?? 0)) {
    fields.lastAt = old.lastAt!;
    if (old.campaign) fields.campaign = old.campaign;
  }
  if (old.outcome && Number(old.outcomeAt ?? 0) > Number(now.outcomeAt ?? 0)) {
    fields.outcome = old.outcome;
    fields.outcomeAt = old.outcomeAt ?? "0";
  }
  if (Object.keys(fields).length > 0) await redis.hset(to, fields);
  const keep = Math.max(ttl, await redis.pttl(to));
  if (keep > 0) await redis.pexpire(to, keep);
  await redis.del(from);
  return true;
}
