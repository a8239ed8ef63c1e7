import type { InboxWatcher, InboxWatcherOptions } from "./watcher.ts";

/**
 * The places of a job's inbox: files arrive in `inbox`, wait in `processing` while imported, and
 * end in `done` or `rejected`. A drop folder's are folders; a bucket inbox's, key prefixes.
 */
export type Area = "inbox" | "processing" | "done" | "rejected";

/** A file in one of the places. */
export interface StoredFile {
  name: string;
  bytes: number;
  modifiedMs: number;
}

/** A file that arrived, as the watcher reports it. */
export interface Arrival {
  /** Its name, as it arrived. */
  name: string;
  /** Where it is, for people and logs: a path or an s3:// address. */
  where: string;
  /** What tells this upload from another of the same name (a bucket's ETag and time); unused by folders. */
  tag?: string;
}

/** A file readable on this machine: the file itself in a folder, a downloaded copy of an object. */
export interface LocalCopy {
  path: string;
  /** Its content hash, when the copy was hashed as it was made. */
  sha256?: string;
  /** Done with it: a downloaded copy (and its error report beside it) is removed. */
  release(): Promise<void>;
}

/** What taking an arrival into processing/ did: taken, refused (that name is there), or it was gone. */
export type Taken = "taken" | "exists" | "gone";

/**
 * A job's inbox: a drop folder (folder-inbox.ts) or a bucket prefix (bucket/bucket-inbox.ts). The
 * life of a file (admit-file.ts, pipeline/files/) is written once against this; only here do the
 * two differ.
 */
export interface InboxStore {
  readonly kind: "folder" | "bucket";
  /** The folder's path or the bucket's s3:// address, for people. */
  readonly where: string;
  /** Where `name` in `area` is, for people. */
  whereIs(area: Area, name: string): string;

  /**
   * Reports each arrival once it is whole (stable); files already there included. A bucket reports
   * an object again at its next listing if it is still there once `onArrival` has settled.
   */
  watch(onArrival: (a: Arrival) => Promise<unknown>, o: InboxWatcherOptions): Promise<InboxWatcher>;
  /**
   * Runs `work` as the only admitter of `a` across every process: a bucket takes a Redis lease; a
   * folder needs none (its links never replace a file). Undefined when another holds it.
   */
  claim<T>(a: Arrival, work: () => Promise<T>): Promise<T | undefined>;
  /** The arrival's content hash, or why it is not taken (gone, not a file). */
  hashArrival(a: Arrival): Promise<{ sha256: string } | { ignored: string }>;
  /**
   * Moves an arrival into processing/ under `name`, never over a file there (`exists`: the same
   * content under the same name is being imported). `aside`: `name` is fresh (a duplicate set aside).
   */
  take(a: Arrival, name: string, o?: { aside?: boolean }): Promise<Taken>;

  /** The files directly in `area` (not its subfolders); hidden and temporary ones left out. */
  list(area: Area): AsyncIterable<StoredFile>;
  /** A regular file (never a link out of the place) in `area`, or undefined when there is none. */
  stat(area: Area, name: string): Promise<StoredFile | undefined>;
  exists(area: Area, name: string): Promise<boolean>;
  /** The content hash of a file, or undefined when it is not there. */
  hash(area: Area, name: string): Promise<string | undefined>;
  /** A small text file (a summary), or undefined when it is not there or larger than `maxBytes`. */
  readText(area: Area, name: string, maxBytes?: number): Promise<string | undefined>;
  /** Writes a small text file whole: readers see the old or the new, never a part. */
  writeText(area: Area, name: string, text: string): Promise<void>;
  /** A copy of a file readable on this machine, or undefined when it is not there. */
  local(area: Area, name: string): Promise<LocalCopy | undefined>;
  /** Moves a file of this machine (an error report) into `area` as `name`. */
  putFile(area: Area, name: string, path: string): Promise<void>;
  /** Moves a file between places (as `toName`); false when it was not there. */
  move(from: Area, name: string, to: Area, toName?: string): Promise<boolean>;
  remove(area: Area, name: string): Promise<void>;
  /** Removes what a killed process left half-written (temporary files, downloads); how many. */
  sweep(): Promise<number>;
}

/** Each job's inbox by its `inbox` setting (a folder's path or an s3:// address), built once. */
export type InboxStores = (inbox: string) => InboxStore;
