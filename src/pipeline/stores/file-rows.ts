import type { ContactCreate } from "../../api/schemas/contact.ts";
import type { LocationHints } from "../../ingest/location-columns.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";

/** One valid row of a contact file, as its plan and its campaigns' own segments need it. */
export interface FileRow {
  phone: string;
  /** Data-row index and physical line (the error report's). */
  index: number;
  line: number;
  contact: ContactCreate;
  /** Where the file's location columns place the callee (under calling rules only). */
  hints?: LocationHints | undefined;
}

/** A file's valid rows, each phone once in file order, and its headers (the error report's first columns). */
export interface FileRows {
  headers: string[];
  rows: FileRow[];
}

/** Rows per hash field: one HSET per chunk as the import reads on. */
const CHUNK = 1_000;
/** A retry comes within hours; the rows outlive that by far (as the plan does), then go. */
const KEEP_MS = 2 * 86_400_000;
/**
 * Past this many rows a file's rows are not kept (120 to 200 bytes a row: tens of MB at most while
 * a file is in flight); its plan and campaigns then read the file, once for all of them.
 */
export const MAX_KEPT_ROWS = 200_000;
const HEADERS = "h";
const COUNT = "n";

/** A row as stored: an array, no field names (bytes per row: the contact's JSON and a few numbers). */
type Packed = [string, number, number, ContactCreate, string?, string?];
const pack = (r: FileRow): Packed =>
  r.hints?.timezone || r.hints?.region
    ? [r.phone, r.index, r.line, r.contact, r.hints.timezone ?? "", r.hints.region ?? ""]
    : [r.phone, r.index, r.line, r.contact];
function unpack([phone, index, line, contact, timezone, region]: Packed): FileRow {
  const hints = { ...(timezone ? { timezone } : {}), ...(region ? { region } : {}) };
  return { phone, index, line, contact, ...(timezone || region ? { hints } : {}) };
}

/**
 * The valid rows of an imported file, gathered while its import reads it (a hash per file: its
 * headers, chunks of rows, and the chunk count once the whole file was read), so its plan and its
 * campaigns never read it again. Written anew by each attempt (every attempt reads the whole
 * file); read only when complete; dropped once the file settled, else expiring; a file of more
 * than MAX_KEPT_ROWS rows is not kept.
 */
export function createFileRowsStore(redis: RedisClient, keys: RedisKeys) {
  return {
    /** A writer of `file`'s rows: what an earlier attempt wrote goes first. */
    async writer(file: string, headers: readonly string[]) {
      const key = keys.fileRows(file);
      await redis.multi().del(key).hset(key, HEADERS, JSON.stringify(headers)).pexpire(key, KEEP_MS).exec();
      let chunk: Packed[] = [];
      let chunks = 0;
      let kept = 0;
      const flush = async () => {
        if (chunk.length === 0 || kept > MAX_KEPT_ROWS) return;
        await redis.hset(key, `c${chunks}`, JSON.stringify(chunk));
        chunks += 1;
        chunk = [];
      };
      return {
        async add(row: FileRow): Promise<void> {
          kept += 1;
          if (kept > MAX_KEPT_ROWS) {
            if (kept === MAX_KEPT_ROWS + 1) await redis.del(key);
            return;
          }
          chunk.push(pack(row));
          if (chunk.length >= CHUNK) await flush();
        },
        /** The whole file was read: the rows may be used. */
        async close(): Promise<void> {
          if (kept > MAX_KEPT_ROWS) return;
          await flush();
          await redis.multi().hset(key, COUNT, String(chunks)).pexpire(key, KEEP_MS).exec();
        },
      };
    },

    /** The file's rows, or undefined when no attempt read it whole (or they expired). */
    async read(file: string): Promise<FileRows | undefined> {
      const all = await redis.hgetall(keys.fileRows(file));
      const headers = all[HEADERS];
      const count = all[COUNT];
      if (headers === undefined || count === undefined) return undefined;
      const chunks = Array.from({ length: Number(count) }, (_, i) => all[`c${i}`]);
      if (chunks.some((c) => c === undefined)) return undefined;
      const rows = chunks.flatMap((c) => (JSON.parse(c!) as Packed[]).map(unpack));
      return { headers: JSON.parse(headers) as string[], rows };
    },

    /** The file settled: its rows are no longer needed (a late retry reads the file in done/). */
    drop: (file: string) => redis.del(keys.fileRows(file)).then(() => undefined),
  };
}

export type FileRowsStore = ReturnType<typeof createFileRowsStore>;
