import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { TEMP_SUFFIX } from "../../lib/atomic-file.ts";
import { failpoint } from "../../lib/failpoint.ts";
import { withLock } from "../../lib/lock.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import type { Area, Arrival, InboxStore, StoredFile, Taken } from "../inbox-store.ts";
import { type BucketAddress, formatBucketAddress } from "./bucket-address.ts";
import type { BucketClient, ObjectInfo } from "./bucket-client.ts";
import { isChanged } from "./bucket-errors.ts";
import { watchBucket } from "./bucket-watcher.ts";
import { downloadObject } from "./download-object.ts";

export interface BucketInboxOptions {
  client: BucketClient;
  redis: RedisClient;
  keys: RedisKeys;
  /** Where objects are downloaded to be read (VCW_HOME/downloads). */
  downloads: string;
  /** An admitter silent this long is presumed dead: another takes its upload (VCW_LOCK_MS). */
  claimMs: number;
}

/** The metadata a copy in processing/ carries: which upload it was taken from. */
const TAKEN_FROM = "vcw-taken-from";

const GONE = "gone (taken by another worker?)";

/** Downloads left by a killed process: removed once untouched this long. */
const ORPHANED_AFTER_MS = 3_600_000;

/**
 * A bucket prefix as a job's inbox: objects arrive under `prefix`, are copied into `processing/`,
 * `done/` and `rejected/` under it and deleted where they were (copy, then delete: an interrupted
 * move leaves a copy, never a loss). Every worker of a fleet watches it; a Redis lease per upload
 * makes one of them take it in (decision 0061).
 */
export function bucketInbox(address: BucketAddress, o: BucketInboxOptions): InboxStore {
  const { bucket, prefix } = address;
  const where = formatBucketAddress(address);
  const keyOf = (area: Area, name: string) => `${prefix}${area === "inbox" ? "" : `${area}/`}${name}`;
  const client = o.client;
  const arrivalOf = (object: ObjectInfo): Arrival => ({
    name: object.key.slice(prefix.length),
    where: `s3://${bucket}/${object.key}`,
    // The upload: a new one of the same key has another ETag, or the same bytes at a later time.
    tag: `${object.etag}@${object.modifiedMs}`,
  });
  const etagOf = (a: Arrival) => a.tag?.slice(0, a.tag.lastIndexOf("@")) ?? "";

  /** Deletes the arrival unless it was replaced meanwhile (a new upload is a new file). */
  const deleteArrival = async (a: Arrival) => {
    const now = await client.head(bucket, keyOf("inbox", a.name));
    if (now && now.etag !== etagOf(a)) return;
    await client.delete(bucket, keyOf("inbox", a.name), { ifMatch: etagOf(a) }).catch((error: unknown) => {
      if (!isChanged(error)) throw error;
    });
  };

  return {
    kind: "bucket",
    where,
    whereIs: (area, name) => `s3://${bucket}/${keyOf(area, name)}`,
    watch: async (onArrival, w) =>
      watchBucket(onArrival, {
        list: () => client.list(bucket, prefix),
        arrivalOf,
        scanMs: w.scanMs ?? 10_000,
        stableMs: w.stableMs ?? 1_000,
        logger: w.logger,
      }),
    async claim(a, work) {
      const upload = createHash("sha256").update(`${where}\n${a.name}\n${a.tag}`).digest("hex").slice(0, 32);
      const held = await withLock(
        o.redis,
        o.keys.objectClaim(upload),
        { ttlMs: o.claimMs, wait: false },
        work,
      );
      return held.acquired ? held.value : undefined;
    },
    async hashArrival(a) {
      try {
        const r = await client.get(bucket, keyOf("inbox", a.name), { ifMatch: etagOf(a) });
        if (!r) return { ignored: GONE };
        if (r.etag !== etagOf(a)) {
          r.body.destroy();
          return { ignored: "replaced by a new upload since it was listed: that one is taken instead" };
        }
        const hash = createHash("sha256");
        for await (const chunk of r.body) hash.update(chunk as Buffer);
        return { sha256: hash.digest("hex") };
      } catch (error) {
        if (isChanged(error))
          return { ignored: "replaced by a new upload since it was listed: that one is taken instead" };
        throw error;
      }
    },
    async take(a, name, t = {}) {
      const target = keyOf("processing", name);
      const there = await client.head(bucket, target);
      // Our own copy, made by an admission of this upload that died before it could delete it.
      const ours = there?.meta?.[TAKEN_FROM] === a.tag;
      if (there && !ours) {
        if (!t.aside) return "exists";
        throw new Error(`${target} is there already: a fresh name was expected`);
      }
      if (!there) {
        try {
          const copied = await client.copy(bucket, keyOf("inbox", a.name), target, {
            ifMatch: etagOf(a),
            meta: { [TAKEN_FROM]: a.tag ?? "" },
          });
          if (!copied) return "gone";
        } catch (error) {
          if (isChanged(error)) return "gone";
          throw error;
        }
      }
      await deleteArrival(a);
      return "taken" satisfies Taken;
    },
    async *list(area) {
      const at = keyOf(area, "");
      for await (const object of client.list(bucket, at)) {
        const name = object.key.slice(at.length);
        if (name === "" || name.startsWith(".") || name.endsWith(TEMP_SUFFIX)) continue;
        yield { name, bytes: object.bytes, modifiedMs: object.modifiedMs } satisfies StoredFile;
      }
    },
    async stat(area, name) {
      const h = await client.head(bucket, keyOf(area, name));
      return h && { name, bytes: h.bytes, modifiedMs: h.modifiedMs };
    },
    exists: async (area, name) => (await client.head(bucket, keyOf(area, name))) !== undefined,
    async hash(area, name) {
      const r = await client.get(bucket, keyOf(area, name));
      if (!r) return undefined;
      const hash = createHash("sha256");
      for await (const chunk of r.body) hash.update(chunk as Buffer);
      return hash.digest("hex");
    },
    async readText(area, name, maxBytes = Number.POSITIVE_INFINITY) {
      const r = await client.get(bucket, keyOf(area, name));
      if (!r) return undefined;
      if (r.bytes > maxBytes) {
        r.body.destroy();
        return undefined;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of r.body) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
    // A PUT replaces an object whole: readers see the old or the new.
    writeText: (area, name, text) => client.put(bucket, keyOf(area, name), text),
    local: (area, name) => downloadObject(client, bucket, keyOf(area, name), o.downloads),
    async putFile(area, name, path) {
      await client.put(bucket, keyOf(area, name), () => createReadStream(path));
      await rm(path, { force: true });
    },
    async move(from, name, to, toName = name) {
      if (!(await client.copy(bucket, keyOf(from, name), keyOf(to, toName)))) return false;
      failpoint("bucket.after-copy");
      await client.delete(bucket, keyOf(from, name));
      return true;
    },
    remove: (area, name) => client.delete(bucket, keyOf(area, name)),
    sweep: () => sweepDownloads(o.downloads),
  };
}

/** Downloads a killed process left behind, untouched for an hour (a live import reads its own). */
async function sweepDownloads(dir: string): Promise<number> {
  let removed = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const path = join(dir, name);
    const st = await stat(path).catch(() => undefined);
    if (!st?.isFile() || Date.now() - st.mtimeMs < ORPHANED_AFTER_MS) continue;
    await rm(path, { force: true });
    removed += 1;
  }
  return removed;
}
