import type { RedisClient } from "../lib/redis.ts";
import type { RedisKeys } from "../lib/redis-keys.ts";
import { defineScript, luaFile } from "../lib/scripts.ts";

export type FileState = "queued" | "done" | "rejected";

export interface FileRecord {
  state: FileState;
  /** Admitted name of the file (in processing/, done/ or rejected/). */
  file: string;
  /** Import generation: a rejected file dropped again is imported afresh under a new one. */
  gen: number;
  at: string;
}

export type Admission =
  /** This file is to be imported (`mine`: it was admitted before, and is still in processing/). */
  | { kind: "new" | "mine"; gen: number }
  /** The same content was imported, or is being imported, from `of`. */
  | { kind: "duplicate"; of: FileRecord };

// Admission is atomic: two daemons seeing the same content admit it once.
const admit = defineScript<[string, string]>(
  "registry_admit",
  1,
  luaFile(import.meta.url, "lua/registry-admit.lua"),
);

/** Per job, the SHA-256 of every file content seen, and what became of it. */
export interface FileRegistry {
  /**
   * `drop`: the file was just dropped (not found in processing/): the same name with its content
   * imported is a second drop, set aside as a duplicate, not the first drop's own import.
   */
  admit(job: string, sha256: string, file: string, o?: { drop?: boolean }): Promise<Admission>;
  settle(job: string, sha256: string, state: "done" | "rejected"): Promise<void>;
  /** Records `sha256` as imported (admitted or not, as with `vcw import`). */
  markDone(job: string, sha256: string, file: string): Promise<void>;
  get(job: string, sha256: string): Promise<FileRecord | undefined>;
  /** Forgets contents settled before `before` (epoch ms); those in flight are kept. Returns how many. */
  prune(job: string, before: number): Promise<number>;
  /** The content hash `file` (an admitted name, which starts with it) was admitted under. */
  admittedAs(job: string, file: string): Promise<string | undefined>;
}

export function createFileRegistry(redis: RedisClient, keys: RedisKeys): FileRegistry {
  const key = keys.files;
  return {
    async admit(job, sha256, file, o = {}) {
      const at = new Date().toISOString();
      const [kind, value] = await admit(redis, [key(job)], [sha256, file, at, o.drop ? "drop" : "found"]);
      if (kind === "duplicate") return { kind, of: JSON.parse(value) as FileRecord };
      return { kind: kind as "new" | "mine", gen: Number(value) };
    },
    async settle(job, sha256, state) {
      const raw = await redis.hget(key(job), sha256);
      if (!raw) return;
      const rec = JSON.parse(raw) as FileRecord;
      await redis.hset(key(job), sha256, JSON.stringify({ ...rec, state, at: new Date().toISOString() }));
    },
    async markDone(job, sha256, file) {
      const raw = await redis.hget(key(job), sha256);
      const rec: FileRecord = raw ? (JSON.parse(raw) as FileRecord) : { state: "done", file, gen: 1, at: "" };
      await redis.hset(
        key(job),
        sha256,
        JSON.stringify({ ...rec, state: "done", at: new Date().toISOString() }),
      );
    },
    async prune(job, before) {
      let cursor = "0";
      let removed = 0;
      do {
        const [next, flat] = await redis.hscan(key(job), cursor, "COUNT", 1000);
        cursor = next;
        const old: string[] = [];
        for (let i = 0; i < flat.length; i += 2) {
          const rec = JSON.parse(flat[i + 1]!) as FileRecord;
          if (rec.state !== "queued" && Date.parse(rec.at) < before) old.push(flat[i]!);
        }
        if (old.length > 0) removed += await redis.hdel(key(job), ...old);
      } while (cursor !== "0");
      return removed;
    },
    async admittedAs(job, file) {
      const prefix = file.slice(0, file.indexOf("-"));
      if (!/^[0-9a-f]+$/.test(prefix)) return undefined;
      let cursor = "0";
      do {
        const [next, flat] = await redis.hscan(key(job), cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
        cursor = next;
        for (let i = 0; i < flat.length; i += 2) {
          if ((JSON.parse(flat[i + 1]!) as FileRecord).file === file) return flat[i]!;
        }
      } while (cursor !== "0");
      return undefined;
    },
    async get(job, sha256) {
      const raw = await redis.hget(key(job), sha256);
      return raw ? (JSON.parse(raw) as FileRecord) : undefined;
    },
  };
}
