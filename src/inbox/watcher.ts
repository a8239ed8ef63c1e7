import { mkdir } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { watch } from "chokidar";
import type { Logger } from "pino";
import { candidacy } from "./drop-folder.ts";

export interface InboxWatcherOptions {
  /** A file counts as written once its size has not changed for this long. Default 1 s. */
  stableMs?: number;
  /** Poll the folder instead of OS events (network shares, some containers). */
  polling?: boolean;
  /** How often a bucket inbox is listed (a folder is watched through OS events). */
  scanMs?: number;
  /** Where a bucket's listing says why it failed. */
  logger?: Logger;
}

export interface InboxWatcher {
  /** Resolves once files already in the folder have been reported. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Reports each file that lands directly in `inbox` (not in its subfolders), files already there
 * included, once it is completely written: its size stable, or renamed in whole. Hidden, temporary
 * and report files are not reported; other files are, so the caller can say it leaves them alone.
 */
export async function watchInbox(
  inbox: string,
  onFile: (path: string) => unknown,
  o: InboxWatcherOptions = {},
): Promise<InboxWatcher> {
  const root = resolve(inbox);
  await mkdir(root, { recursive: true });
  const watcher = watch(root, {
    depth: 0,
    ignoreInitial: false,
    usePolling: o.polling ?? false,
    interval: 200,
    awaitWriteFinish: { stabilityThreshold: o.stableMs ?? 1_000, pollInterval: 100 },
    ignored: (path, stats) =>
      path !== root && (candidacy(basename(path)) === "skip" || stats?.isDirectory() === true),
  });
  watcher.on("add", (path) => {
    if (dirname(resolve(path)) === root) onFile(resolve(path));
  });
  const ready = new Promise<void>((done) => watcher.once("ready", () => done()));
  return { ready, close: () => watcher.close() };
}
