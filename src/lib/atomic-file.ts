import { randomBytes } from "node:crypto";
import { open, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";

/** Suffix of the temporary files below: a sweep may remove leftovers of a killed process. */
export const TEMP_SUFFIX = ".vcw-tmp";

/** A temporary name beside `path`, unique across processes and concurrent writers of one process. */
export const tempNameFor = (path: string) =>
  `${path}.${process.pid}-${randomBytes(4).toString("hex")}${TEMP_SUFFIX}`;

/**
 * Removes temporary files a killed process left in `dir`: only ours (by their suffix), starting
 * with `startsWith`, untouched for `idleMs`. A live writer touches its file as it writes, so an idle
 * one is an orphan; under the lock that covers every writer of those files, `idleMs` may be 0.
 */
export async function sweepTemporaryFiles(dir: string, startsWith = "", idleMs = 0): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names.filter((n) => n.endsWith(TEMP_SUFFIX) && n.startsWith(startsWith))) {
    const path = join(dir, name);
    const st = await stat(path).catch(() => undefined);
    if (!st || Date.now() - st.mtimeMs < idleMs) continue;
    await rm(path, { force: true });
    removed += 1;
  }
  return removed;
}

/**
 * Writes a file atomically and durably: a uniquely named temporary file, flushed to disk, renamed
 * into place. Readers see the old content or the new, never a part; a failed write leaves no
 * temporary file behind.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = tempNameFor(path);
  try {
    const handle = await open(tmp, "w");
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}
