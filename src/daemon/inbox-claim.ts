import { createHash, randomBytes } from "node:crypto";
import { resolve } from "node:path";
import type { Logger } from "pino";
import { formatBucketAddress, isBucketAddress, parseBucketAddress } from "../inbox/bucket/bucket-address.ts";
import type { RedisClient } from "../lib/redis.ts";
import type { RedisKeys } from "../lib/redis-keys.ts";
import { defineScript, LUA_NOW_MS, luaFile } from "../lib/scripts.ts";
import { StartupError } from "./errors.ts";

/**
 * One hash per inbox: daemon -> "<job>\n<expiry ms>". Claims lapse unless renewed, so a daemon that
 * died frees its inbox. Returns "" when claimed, else the job another live daemon watches it for.
 */
const claim = defineScript<string>(
  "inbox_claim",
  1,
  luaFile(import.meta.url, "lua/inbox-claim.lua", { LUA_NOW_MS }),
);

/** One spelling per inbox on every machine: a folder's absolute path, a bucket's s3:// address. */
function inboxIdentity(inbox: string): string {
  if (!isBucketAddress(inbox)) return resolve(inbox);
  const address = parseBucketAddress(inbox);
  return "problem" in address ? inbox : formatBucketAddress(address);
}

export interface InboxClaim {
  stop(): Promise<void>;
}

/**
 * Claims `inbox` for `job` across every daemon on this Redis: two jobs watching one folder would
 * take each other's files. Refused (StartupError) while a live daemon watches it for another job;
 * the claim is renewed every third of `ttlMs` and given up on stop.
 */
export async function claimInbox(
  redis: RedisClient,
  keys: RedisKeys,
  o: { inbox: string; job: string; logger: Logger; ttlMs?: number },
): Promise<InboxClaim> {
  const path = inboxIdentity(o.inbox);
  const key = keys.inboxClaim(createHash("sha256").update(path).digest("hex").slice(0, 32));
  const me = randomBytes(8).toString("hex");
  const ttlMs = o.ttlMs ?? 30_000;
  const other = await claim(redis, [key], [me, o.job, ttlMs]);
  if (other)
    throw new StartupError(
      `the inbox ${path} of job "${o.job}" is watched by another daemon for job "${other}": two jobs can't share a drop folder (give each its own inbox)`,
    );
  const timer = setInterval(() => {
    claim(redis, [key], [me, o.job, ttlMs]).then(
      (taken) => {
        if (taken)
          o.logger.error(
            { inbox: path, job: o.job, other: taken },
            `job "${taken}" now watches this inbox too (its claim was taken while ours had lapsed): stop one of them`,
          );
      },
      () => undefined, // Redis away: renewed on the next tick
    );
  }, ttlMs / 3);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await redis.hdel(key, me).catch(() => undefined);
    },
  };
}
