import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { TEMP_SUFFIX, writeFileAtomic } from "../lib/atomic-file.ts";
import { journalLine, parseJournal } from "./journal.ts";
import type { Change, Store, StoreData } from "./store.ts";

/*
 * The state file is a snapshot of the data; beside it, `<file>.journal` has one line per change
 * made since. A change is on disk (written and fsync'd) before any response is sent, so a kill -9
 * loses nothing that was answered. At start the journal is replayed over the snapshot; now and
 * then, and at a clean stop, the data is written as a new snapshot and the journal emptied.
 */

export const journalPathOf = (stateFile: string) => `${stateFile}.journal`;

/** The saved snapshot and the changes journaled after it, or undefined when there are none yet. */
export function loadState(path: string): { data: StoreData | undefined; changes: Change[] } | undefined {
  const journal = journalPathOf(path);
  if (!existsSync(path) && !existsSync(journal)) return undefined;
  const read = <T>(file: string, parse: (text: string) => T) => {
    try {
      return parse(readFileSync(file, "utf8"));
    } catch (error) {
      throw new Error(`Cannot read the simulator state file ${file}: ${(error as Error).message}`);
    }
  };
  return {
    data: existsSync(path) ? read(path, (text) => JSON.parse(text) as StoreData) : undefined,
    changes: existsSync(journal) ? read(journal, (text) => parseJournal(text).changes) : [],
  };
}

export interface DurableStateOptions {
  /** The journal is folded into the snapshot once it is this large, or as large as the snapshot. */
  compactBytes?: number;
  /** ...and at least this often while it holds changes. */
  compactEveryMs?: number;
  onError?: (error: unknown) => void;
}

export interface DurableState {
  /** Resolves once every change applied so far is on disk; rejects when writing it failed. */
  persisted(): Promise<void>;
  /** Writes a last snapshot and closes the journal. */
  close(): Promise<void>;
}

interface Waiter {
  seq: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Keeps `store` durable in `path`. Writes are committed in groups: the changes applied while one
 * write and fsync runs go together in the next, so concurrent requests share an fsync.
 */
export async function openDurableState(
  path: string,
  store: Store,
  {
    compactBytes = 4 * 1024 * 1024,
    compactEveryMs = 60_000,
    onError = (error) => process.emitWarning(`simulator state not saved: ${String(error)}`),
  }: DurableStateOptions = {},
): Promise<DurableState> {
  await mkdir(dirname(path), { recursive: true });
  removeTempFiles(path);
  let snapshotBytes = await writeSnapshot(path, store.data);
  // O_APPEND: after a truncation, the next write lands at the new end, not at the old offset.
  const journal = await open(journalPathOf(path), "a");
  await journal.truncate(0);

  let pending: { seq: number; line: string }[] = [];
  let journalBytes = 0;
  let durableSeq = store.seq;
  let compactedAt = Date.now();
  let waiters: Waiter[] = [];
  let busy = false;
  let idle = Promise.resolve();
  let closing = false;
  let closed = false;

  const settle = (seq: number) => {
    durableSeq = Math.max(durableSeq, seq);
    const done = waiters.filter((w) => w.seq <= durableSeq);
    waiters = waiters.filter((w) => w.seq > durableSeq);
    for (const w of done) w.resolve();
  };

  async function append(): Promise<void> {
    const batch = pending;
    pending = [];
    const text = batch.map((c) => c.line).join("");
    try {
      await journal.appendFile(text);
      await journal.datasync();
      journalBytes += Buffer.byteLength(text);
      settle(batch.at(-1)!.seq);
    } catch (error) {
      // Keep the batch for the next attempt, and cut off any part of it that reached the file.
      pending = batch.concat(pending);
      await journal.truncate(journalBytes).catch(() => undefined);
      const failed = waiters;
      waiters = [];
      for (const w of failed) w.reject(error);
      throw error;
    }
  }

  async function compact(): Promise<void> {
    const seq = store.seq;
    snapshotBytes = await writeSnapshot(path, store.data);
    compactedAt = Date.now();
    // The snapshot holds every change up to `seq`: those still queued need not be written, and a
    // crash before the truncation only leaves lines that replay skips.
    pending = pending.filter((c) => c.seq > seq);
    settle(seq);
    await journal.truncate(0);
    journalBytes = 0;
  }

  const compactionDue = () =>
    closing ||
    journalBytes >= Math.max(compactBytes, snapshotBytes) ||
    (journalBytes > 0 && Date.now() - compactedAt >= compactEveryMs);

  /** One writer at a time; `busy` is set and cleared in the same turn as the checks, never between. */
  function kick(): void {
    if (busy || closed) return;
    busy = true;
    idle = (async () => {
      try {
        for (;;) {
          // At a stop, the journal first takes what is queued, so a failed snapshot loses nothing.
          if (compactionDue() && !(closing && pending.length > 0)) {
            await compact();
            if (closing) return;
          } else if (pending.length > 0) await append();
          else return;
        }
      } catch (error) {
        onError(error); // retried with the next change
      } finally {
        busy = false;
      }
    })();
  }

  store.onChange = (change) => {
    // Serialized now: the record may change after this call.
    pending.push({ seq: change.seq, line: journalLine(change) });
    setImmediate(kick); // after this turn's other requests, so that they share one write
  };
  const timer = setInterval(kick, compactEveryMs).unref();

  return {
    persisted() {
      const seq = store.seq;
      if (seq <= durableSeq) return Promise.resolve();
      if (closed) return Promise.reject(new Error("the simulator's state file is closed"));
      return new Promise((resolve, reject) => {
        waiters.push({ seq, resolve, reject });
        setImmediate(kick); // with the changes queued in this turn (and again after a failed write)
      });
    },
    async close() {
      if (closed) return;
      store.onChange = undefined;
      clearInterval(timer);
      await idle;
      closing = true;
      kick();
      await idle;
      closed = true;
      for (const w of waiters.splice(0))
        w.reject(new Error("the simulator stopped before the change was saved"));
      await journal.close();
    },
  };
}

/** Writes the snapshot atomically and durably (the rename too); returns its size. */
async function writeSnapshot(path: string, data: StoreData): Promise<number> {
  const text = JSON.stringify(data);
  await writeFileAtomic(path, text);
  const dir = await open(dirname(path), "r");
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
  return Buffer.byteLength(text);
}

/** Temporary snapshots left by a process killed while writing one. */
function removeTempFiles(path: string): void {
  const prefix = `${basename(path)}.`;
  for (const name of readdirSync(dirname(path))) {
    if (name.startsWith(prefix) && name.endsWith(TEMP_SUFFIX))
      rmSync(join(dirname(path), name), { force: true });
  }
}
