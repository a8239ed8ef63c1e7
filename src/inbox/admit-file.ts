import { link, lstat, mkdir, stat, unlink } from "node:fs/promises";
import { basename, join } from "node:path";
import {
  admittedName,
  CONTACT_FILE_EXTENSIONS,
  candidacy,
  type DropFolder,
  duplicateName,
  isDuplicateName,
  originalOf,
  settleFile,
  sha256File,
} from "./drop-folder.ts";
import type { FileRegistry } from "./file-registry.ts";

/** A file taken into a job's processing/ folder: what its import job carries. Never rows, never secrets. */
export interface AdmittedFile {
  /** Name of the job definition (jobs/*.yaml). */
  job: string;
  /** Admitted name of the file in the job's processing/ folder. */
  file: string;
  sha256: string;
  /** The name it arrived under, for people. */
  original: string;
}

const GONE = "gone (taken by another daemon?)";

export type AdmitResult =
  | { kind: "queued"; file: string; sha256: string; jobId: string | undefined }
  | { kind: "duplicate"; file: string; sha256: string; of: string }
  | { kind: "ignored"; reason: string };

export interface AdmitDeps {
  job: string;
  folder: DropFolder;
  registry: FileRegistry;
  /**
   * Enqueues the file's import (generation `gen`), or sends its failed job back to the queue;
   * idempotent. Returns the queue's job id.
   */
  enqueue: (file: AdmittedFile, gen: number) => Promise<string | undefined>;
}

/**
 * Takes a file that arrived in a job's inbox: hashes it, moves it to processing/ under a name of
 * ours, and enqueues its import, or sets it aside as a duplicate when the same content was
 * imported before. Safe against two daemons watching the same folder, and against a crash
 * anywhere (processing/ is recovered at start).
 */
export async function admitFile(path: string, d: AdmitDeps): Promise<AdmitResult> {
  const original = basename(path);
  const kind = candidacy(original);
  if (kind === "foreign")
    return {
      kind: "ignored",
      reason: `not a contact file: left where it is (only ${CONTACT_FILE_EXTENSIONS.join(", ")} files are imported)`,
    };
  if (kind === "skip") return { kind: "ignored", reason: "hidden, temporary or a report of ours" };
  const stats = await lstat(path).catch(() => undefined);
  if (!stats) return { kind: "ignored", reason: GONE };
  if (!stats.isFile()) return { kind: "ignored", reason: "not a regular file" };
  // Another daemon watching this inbox (the same job, in a rolling deploy) may take it meanwhile.
  const sha256 = await sha256File(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (!sha256) return { kind: "ignored", reason: GONE };
  const name = admittedName(sha256, original);
  await mkdir(d.folder.processing, { recursive: true });
  const target = join(d.folder.processing, name);
  try {
    // A hard link never replaces an existing file, unlike rename: the same content already in
    // processing/ under this name is a duplicate, not something to overwrite.
    await link(path, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { kind: "ignored", reason: GONE };
    if (code !== "EEXIST") throw error;
    // The very file another daemon has just linked in: its admission, not a second drop.
    if (await sameFile(path, target)) return { kind: "ignored", reason: GONE };
    return setAside(path, d, sha256, original, `${name} (being imported)`);
  }
  await unlink(path).catch(() => undefined);
  return enqueue(d, name, sha256, original, { drop: true });
}

/**
 * A file found in processing/ (at start, and at every rescan): its import may never have been
 * queued, its job may be gone with a Redis that lost its data, or it was imported and could not
 * be settled (a full disk). Enqueues it again, or revives its failed job; idempotent.
 */
export async function recoverFile(name: string, d: AdmitDeps): Promise<AdmitResult> {
  // Known by the content it was admitted with: the file may have grown since (a writer still at it).
  const hash =
    (await d.registry.admittedAs(d.job, name)) ?? (await sha256File(join(d.folder.processing, name)));
  if (isDuplicateName(name)) {
    await settleDuplicate(d, name, hash, originalOf(name), "an earlier import");
    return { kind: "duplicate", file: name, sha256: hash, of: "an earlier import" };
  }
  return enqueue(d, name, hash, originalOf(name));
}

async function enqueue(
  d: AdmitDeps,
  name: string,
  sha256: string,
  original: string,
  o: { drop?: boolean } = {},
): Promise<AdmitResult> {
  const admission = await d.registry.admit(d.job, sha256, name, o);
  if (admission.kind === "duplicate") {
    return setAside(join(d.folder.processing, name), d, sha256, original, admission.of.file);
  }
  const jobId = await d.enqueue({ job: d.job, file: name, sha256, original }, admission.gen);
  return { kind: "queued", file: name, sha256, jobId };
}

async function setAside(
  path: string,
  d: AdmitDeps,
  sha256: string,
  original: string,
  of: string,
): Promise<AdmitResult> {
  const name = duplicateName(sha256, original, Date.now());
  await mkdir(d.folder.processing, { recursive: true });
  // Move it under its duplicate name through processing/, so settleFile can finish the move (or a
  // rescan, if settling fails).
  const staged = join(d.folder.processing, name);
  try {
    await link(path, staged);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "ignored", reason: GONE };
    throw error;
  }
  try {
    await unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    // Another daemon set the same drop aside first: one copy in done/ is enough.
    await unlink(staged).catch(() => undefined);
    return { kind: "ignored", reason: GONE };
  }
  await settleDuplicate(d, name, sha256, original, of);
  return { kind: "duplicate", file: name, sha256, of };
}

/** Whether two paths are links to one file (a hard link made by another admitter). */
async function sameFile(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([stat(a).catch(() => undefined), stat(b).catch(() => undefined)]);
  return !x || (x.ino === y?.ino && x.dev === y.dev);
}

async function settleDuplicate(d: AdmitDeps, name: string, sha256: string, original: string, of: string) {
  await settleFile(d.folder, name, "done", {
    status: "duplicate",
    job: d.job,
    file: original,
    sha256,
    duplicateOf: of,
    message: `The same content was already imported for job ${d.job} (${of}); nothing was imported again.`,
    at: new Date().toISOString(),
  });
}
