import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";

/** Suffix of the temporary files below: a sweep may remove leftovers of a killed process. */
export const TEMP_SUFFIX = ".vcw-tmp";

/** A temporary name beside `path`, unique across processes and concurrent writers of one process. */
export const tempNameFor = (path: string) =>
  `${path}.${process.pid}-${randomBytes(4).toString("hex")}${TEMP_SUFFIX}`;

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
