import { createHash, randomBytes } from "node:crypto";
import { withLock } from "../../../lib/lock.ts";
import type { RedisClient } from "../../../lib/redis.ts";
import type { RedisKeys } from "../../../lib/redis-keys.ts";
import { DoNotCallImportError } from "./errors.ts";
import type { ExtractLine } from "./extract-reader.ts";
import { DoNotCallList, SOURCE_NAME } from "./list-facts.ts";
import { retireVersion } from "./retire-version.ts";
import { treePlaceOf } from "./tree-place.ts";
import { TreeWriter } from "./tree-writer.ts";

export interface LoadListOptions {
  source: string;
  /** The extract's file name, kept with the list (no folder). */
  file: string;
  /** How long the list stays current (undefined: never expires). */
  expiresInMs: number | undefined;
  /** Share of lines that may be no number before the import is refused (default 0.01). */
  maxInvalidShare?: number;
  /**
   * Memory for numbers not yet written, in blocks of 1,250 bytes (default 20,000: 25 MB, 3.1
   * million numbers at 8 bytes); past it they are written and later ones merged in.
   */
  maxBlocks?: number;
  now?: () => number;
  /** Every 100,000 lines read. */
  onProgress?: (lines: number) => void;
}

export interface LoadedList {
  list: DoNotCallList;
  /** The list it replaced, if any. */
  replaced: DoNotCallList | undefined;
  lines: number;
  /** The first lines that were no number: where and why. */
  invalidExamples: { line: number; problem: string }[];
}

const LOCK_TTL_MS = 30_000;
const EXAMPLES = 10;

/**
 * Loads an extract as a source's new version, then switches the source to it in one step (the
 * version before stays in force until then, and is deleted after); a crash mid-load leaves a
 * version nothing reads, deleted by the next import. One import per source at a time.
 */
export async function loadDoNotCallList(
  redis: RedisClient,
  keys: RedisKeys,
  lines: AsyncIterable<ExtractLine>,
  o: LoadListOptions,
): Promise<LoadedList> {
  if (!SOURCE_NAME.test(o.source))
    throw new DoNotCallImportError(
      `source "${o.source}" must be lower-case letters, digits, dots, dashes or underscores (at most 40), such as ftc or state-fl`,
    );
  const locked = await withLock(redis, keys.dncLock(o.source), { ttlMs: LOCK_TTL_MS, wait: false }, (lost) =>
    loadLocked(redis, keys, lines, o, lost),
  );
  if (!locked.acquired)
    throw new DoNotCallImportError(`another import of do-not-call source "${o.source}" is running`);
  return locked.value;
}

async function loadLocked(
  redis: RedisClient,
  keys: RedisKeys,
  lines: AsyncIterable<ExtractLine>,
  o: LoadListOptions,
  lost: AbortSignal,
): Promise<LoadedList> {
  const now = o.now ?? Date.now;
  await finishLeftovers(redis, keys, o.source);
  const version = randomBytes(4).toString("hex");
  await redis.hset(keys.dncLoading, version, JSON.stringify({ source: o.source, startedAt: now() }));
  let loaded: { list: DoNotCallList; read: Awaited<ReturnType<typeof readInto>> };
  try {
    loaded = await loadVersion(redis, keys, version, lines, o);
    // Another import took the lock meanwhile (a long stall): it deletes this version as a leftover.
    if (lost.aborted || !(await redis.hexists(keys.dncLoading, version)))
      throw new DoNotCallImportError(`the import of "${o.source}" lost its lock: run it again`);
  } catch (error) {
    await retireVersion(redis, keys, version).catch(() => undefined); // else the next import does
    throw error;
  }
  const replaced = await switchTo(redis, keys, loaded.list, now());
  // Queued in `retired` by the switch: a failure here is finished by the next import.
  if (replaced) await retireVersion(redis, keys, replaced.version);
  return { list: loaded.list, replaced, lines: loaded.read.lines, invalidExamples: loaded.read.examples };
}

/** Reads the extract into a new version's blocks: the list it makes, unless refused. */
async function loadVersion(
  redis: RedisClient,
  keys: RedisKeys,
  version: string,
  lines: AsyncIterable<ExtractLine>,
  o: LoadListOptions,
) {
  const now = o.now ?? Date.now;
  await redis.sadd(keys.dncBlocks(version), "-"); // the index exists even before a first block
  const writer = new TreeWriter(redis, keys, version, ((o.maxBlocks ?? 20_000) * 1_250) / 8);
  const read = await readInto(writer, lines, o);
  await writer.flush();
  refuseBad(read, writer.numbers, o);
  const importedAt = now();
  const list: DoNotCallList = {
    source: o.source,
    version,
    numbers: writer.numbers,
    blocks: writer.blocks,
    importedAt,
    ...(o.expiresInMs === undefined ? {} : { expiresAt: importedAt + o.expiresInMs }),
    file: o.file,
    invalid: read.invalid,
    sha256: read.hash.digest("hex"),
    layout: "tree",
  };
  return { list, read };
}

async function readInto(writer: TreeWriter, lines: AsyncIterable<ExtractLine>, o: LoadListOptions) {
  const read = {
    lines: 0,
    invalid: 0,
    examples: [] as { line: number; problem: string }[],
    hash: createHash("sha256"),
  };
  for await (const line of lines) {
    read.lines += 1;
    if (read.lines % 100_000 === 0) o.onProgress?.(read.lines);
    if ("phone" in line && treePlaceOf(line.phone)) {
      await writer.add(line.phone);
      read.hash.update(`${line.phone}\n`);
      continue;
    }
    read.invalid += 1;
    if (read.examples.length < EXAMPLES)
      read.examples.push({ line: line.line, problem: "problem" in line ? line.problem : "not E.164" });
  }
  return read;
}

function refuseBad(
  read: { lines: number; invalid: number; examples: { line: number; problem: string }[] },
  numbers: number,
  o: LoadListOptions,
) {
  const where = read.examples.map((e) => `line ${e.line}: ${e.problem}`).join("; ");
  if (numbers === 0)
    throw new DoNotCallImportError(
      `${o.file}: no phone number in ${read.lines} lines${where ? ` (${where})` : ""}; the list in force is unchanged`,
    );
  const share = o.maxInvalidShare ?? 0.01;
  if (read.invalid > share * read.lines)
    throw new DoNotCallImportError(
      `${o.file}: ${read.invalid} of ${read.lines} lines are no phone number (more than ${share * 100}%): is it the right file or column? ${where}; the list in force is unchanged`,
    );
}

/** The source's list becomes `list` in one step; the one it replaced is queued for deletion. */
async function switchTo(redis: RedisClient, keys: RedisKeys, list: DoNotCallList, at: number) {
  const before = await redis.hget(keys.dncLists, list.source);
  const replaced = before === null ? undefined : DoNotCallList.parse(JSON.parse(before));
  const tx = redis
    .multi()
    .hset(keys.dncLists, list.source, JSON.stringify(list))
    .hdel(keys.dncLoading, list.version);
  if (replaced) tx.hset(keys.dncRetired, replaced.version, at);
  await tx.exec();
  return replaced;
}

/** Versions retired but not yet deleted, and loads of this source that died (we hold its lock). */
async function finishLeftovers(redis: RedisClient, keys: RedisKeys, source: string) {
  for (const version of Object.keys(await redis.hgetall(keys.dncRetired)))
    await retireVersion(redis, keys, version);
  const loading = await redis.hgetall(keys.dncLoading);
  for (const [version, raw] of Object.entries(loading)) {
    const { source: of } = JSON.parse(raw) as { source?: string };
    if (of === source) await retireVersion(redis, keys, version);
  }
}
