import {
  admittedName,
  CONTACT_FILE_EXTENSIONS,
  candidacy,
  duplicateName,
  isDuplicateName,
  originalOf,
} from "./drop-folder.ts";
import type { FileRegistry } from "./file-registry.ts";
import type { Arrival, InboxStore } from "./inbox-store.ts";
import { settleFile } from "./settle-file.ts";

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
  /** The job's inbox: a drop folder or a bucket prefix. */
  inbox: InboxStore;
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
 * imported before. Safe against two daemons watching the same inbox, and against a crash
 * anywhere (processing/ is recovered at start).
 */
export async function admitFile(a: Arrival, d: AdmitDeps): Promise<AdmitResult> {
  const original = a.name;
  const kind = candidacy(original);
  if (kind === "foreign")
    return {
      kind: "ignored",
      reason: `not a contact file: left where it is (only ${CONTACT_FILE_EXTENSIONS.join(", ")} files are imported)`,
    };
  if (kind === "skip") return { kind: "ignored", reason: "hidden, temporary or a report of ours" };
  const hashed = await d.inbox.hashArrival(a);
  if ("ignored" in hashed) return { kind: "ignored", reason: hashed.ignored };
  const { sha256 } = hashed;
  const name = admittedName(sha256, original);
  const taken = await d.inbox.take(a, name);
  if (taken === "gone") return { kind: "ignored", reason: GONE };
  if (taken === "exists") return setAside(a, d, sha256, original, `${name} (being imported)`);
  return enqueue(d, name, sha256, original, { drop: true });
}

/**
 * A file found in processing/ (at start, and at every rescan): its import may never have been
 * queued, its job may be gone with a Redis that lost its data, or it was imported and could not
 * be settled (a full disk). Enqueues it again, or revives its failed job; idempotent.
 */
export async function recoverFile(name: string, d: AdmitDeps): Promise<AdmitResult> {
  // Known by the content it was admitted with: the file may have grown since (a writer still at it).
  const hash = (await d.registry.admittedAs(d.job, name)) ?? (await d.inbox.hash("processing", name));
  if (hash === undefined) return { kind: "ignored", reason: GONE };
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
    const admitted = { name, where: d.inbox.whereIs("processing", name) };
    return setAside(admitted, d, sha256, original, admission.of.file, { from: "processing" });
  }
  const jobId = await d.enqueue({ job: d.job, file: name, sha256, original }, admission.gen);
  return { kind: "queued", file: name, sha256, jobId };
}

/**
 * Sets content imported before aside: under its duplicate name through processing/, so settleFile
 * can finish the move to done/ (or a rescan, if settling fails). `from: processing`: it was admitted
 * under `a.name` already (the registry found its content imported meanwhile).
 */
async function setAside(
  a: Arrival,
  d: AdmitDeps,
  sha256: string,
  original: string,
  of: string,
  o: { from?: "processing" } = {},
): Promise<AdmitResult> {
  const name = duplicateName(sha256, original, Date.now());
  if (o.from) {
    if (!(await d.inbox.move("processing", a.name, "processing", name)))
      return { kind: "ignored", reason: GONE };
  } else if ((await d.inbox.take(a, name, { aside: true })) === "gone") {
    return { kind: "ignored", reason: GONE };
  }
  await settleDuplicate(d, name, sha256, original, of);
  return { kind: "duplicate", file: name, sha256, of };
}

async function settleDuplicate(d: AdmitDeps, name: string, sha256: string, original: string, of: string) {
  await settleFile(d.inbox, name, "done", {
    status: "duplicate",
    job: d.job,
    file: original,
    sha256,
    duplicateOf: of,
    message: `The same content was already imported for job ${d.job} (${of}); nothing was imported again.`,
    at: new Date().toISOString(),
  });
}
