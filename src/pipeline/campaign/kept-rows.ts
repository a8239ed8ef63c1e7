import type { JobDefinition } from "../../config/job-definition.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import { readFileRows } from "../calling/gather-facts.ts";
import { createFileRowsStore, type FileRows } from "../stores/file-rows.ts";

/**
 * A file's valid rows, looked up once and shared by its listing count, its plan and each of its
 * campaigns: as its import kept them (read once, at import), or, when no attempt kept them whole
 * (a file too large, rows expired, a file settled before), read from the file where it is now.
 */
export function keptRows(
  def: JobDefinition,
  f: { creator: string; path: string },
  d: { redis: RedisClient; keys: RedisKeys },
): () => Promise<FileRows> {
  let rows: Promise<FileRows> | undefined;
  return () => {
    rows ??= createFileRowsStore(d.redis, d.keys)
      .read(f.creator)
      .then((kept) => kept ?? readFileRows(def, f.path));
    return rows;
  };
}
