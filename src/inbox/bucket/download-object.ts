import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { safeFileName } from "../../lib/safe-file-name.ts";
import { sha256File } from "../drop-folder.ts";
import type { LocalCopy } from "../inbox-store.ts";
import type { BucketClient } from "./bucket-client.ts";
import { BucketError } from "./bucket-errors.ts";

/** Times a body cut short is taken up again from where it stopped (a ranged GET), per download. */
const RESUMES = 5;

/**
 * An object downloaded into `dir` as a stream (memory stays flat whatever its size), then hashed.
 * A body cut short (a reset connection, a 503 storm mid-body) is taken up again by a
 * ranged GET from the bytes already written, on condition that the object is still the same
 * upload (If-Match its ETag); one that changed or went meanwhile is an error naming it.
 * Undefined when the object is not there.
 */
export async function downloadObject(
  client: BucketClient,
  bucket: string,
  key: string,
  dir: string,
): Promise<LocalCopy | undefined> {
  await mkdir(dir, { recursive: true });
  const path = join(
    dir,
    `${randomBytes(6).toString("hex")}-${safeFileName(key.slice(key.lastIndexOf("/") + 1))}`,
  );
  const release = async () => {
    await rm(path, { force: true });
    await rm(`${path}.errors.csv`, { force: true });
  };
  let etag: string | undefined;
  let total = Number.POSITIVE_INFINITY;
  try {
    for (let resumes = 0; ; resumes++) {
      // What reached the disk, not what was received: a write cut short leaves no gap.
      const written = await stat(path).then(
        (st) => st.size,
        () => 0,
      );
      if (written >= total) break;
      const r = await client.get(bucket, key, { from: written, ...(etag ? { ifMatch: etag } : {}) });
      if (!r) {
        if (etag === undefined) return undefined;
        throw changed(bucket, key, "was deleted");
      }
      if (etag !== undefined && r.etag !== etag) throw changed(bucket, key, "was replaced");
      etag = r.etag;
      total = r.bytes;
      try {
        await pipeline(r.body, createWriteStream(path, { flags: "a" }));
        if ((await stat(path)).size >= total) break;
      } catch (error) {
        if (resumes >= RESUMES) throw error;
      }
    }
    return { path, sha256: await sha256File(path), release };
  } catch (error) {
    await release();
    throw error;
  }
}

const changed = (bucket: string, key: string, how: string) =>
  new BucketError(
    `read s3://${bucket}/${key}: the object ${how} while it was read: it is read again from the start`,
    "Changed",
    false,
  );
