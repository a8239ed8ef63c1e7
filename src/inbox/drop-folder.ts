import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { join } from "node:path";
import { safeFileName } from "../lib/safe-file-name.ts";
import type { InboxStore } from "./inbox-store.ts";

/** A job's drop folder: files arrive in `inbox`, move to `processing`, end in `done` or `rejected`. */
export interface DropFolder {
  inbox: string;
  processing: string;
  done: string;
  rejected: string;
}

export function dropFolder(inbox: string): DropFolder {
  return {
    inbox,
    processing: join(inbox, "processing"),
    done: join(inbox, "done"),
    rejected: join(inbox, "rejected"),
  };
}

const TEMPORARY = /(\.(tmp|temp|part|partial|crdownload|download|swp|vcw-tmp)|~)$/i;
const REPORTS = /\.(errors\.csv|summary\.json)$/i;
/** The contact files an inbox takes; anything else is left where it is. */
export const CONTACT_FILE_EXTENSIONS = [".csv", ".tsv", ".txt", ".xlsx"] as const;

export type Candidacy =
  /** A contact file to import. */
  | "contacts"
  /** Hidden, being written under a temporary name, or one of our own reports: not now, not said. */
  | "skip"
  /** Some other file: left where it is, and the operator told so once. */
  | "foreign";

export function candidacy(name: string): Candidacy {
  // `~$name.xlsx` is the lock file Excel keeps beside a workbook it has open.
  if (name.startsWith(".") || name.startsWith("~$") || TEMPORARY.test(name) || REPORTS.test(name))
    return "skip";
  const lower = name.toLowerCase();
  return CONTACT_FILE_EXTENSIONS.some((ext) => lower.endsWith(ext)) ? "contacts" : "foreign";
}

/** Files to pick up: contact files, not hidden, not being written under a temporary name, not our reports. */
export const isCandidate = (name: string) => candidacy(name) === "contacts";

const HASH_CHARS = 12;

/** The name a file carries once admitted: content hash first, so names never collide. */
export const admittedName = (sha256: string, name: string) =>
  `${sha256.slice(0, HASH_CHARS)}-${safeFileName(name)}`;

/** The name of content set aside as a duplicate: never the name of an admitted file. */
export const duplicateName = (sha256: string, name: string, at: number) =>
  `${sha256.slice(0, HASH_CHARS)}-dup${at}-${safeFileName(name)}`;

const DUPLICATE = new RegExp(`^[0-9a-f]{${HASH_CHARS}}-dup\\d+-`);

/** Whether `name` in processing/ is content being set aside as a duplicate. */
export const isDuplicateName = (name: string) => DUPLICATE.test(name);

/** The name a file arrived under, from its admitted (or duplicate) name. */
export const originalOf = (admitted: string) =>
  isDuplicateName(admitted) ? admitted.replace(DUPLICATE, "") : admitted.slice(HASH_CHARS + 1);

export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * Ends a file's stay in `processing`: its error report, its summary, then the file itself go to
 * `done` or `rejected`. The report goes before the summary that names it, so whoever reads a
 * summary there finds its report; the file moves last, so a file found there is complete. Repeatable.
 */
export async function settleFile(
  inbox: InboxStore,
  name: string,
  outcome: "done" | "rejected",
  summary: object,
  errorsFile?: string,
): Promise<void> {
  if (errorsFile) await inbox.putFile(outcome, `${name}.errors.csv`, errorsFile);
  await inbox.writeText(outcome, `${name}.summary.json`, `${JSON.stringify(summary, null, 2)}\n`);
  await inbox.move("processing", name, outcome);
  await inbox.remove("processing", `${name}.errors.csv`);
}
