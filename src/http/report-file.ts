import { basename } from "node:path";
import Papa from "papaparse";
import type { JobDefinition } from "../config/job-definition.ts";
import type { InboxStore, InboxStores } from "../inbox/inbox-store.ts";
import { maskPhonesIn } from "../lib/mask-phone.ts";

/** The folders whose reports the dashboard links to; nothing else of the disk is served. */
export const REPORT_FOLDERS = ["done", "rejected"] as const;
export type ReportFolder = (typeof REPORT_FOLDERS)[number];

const REPORT_NAME = /^[^./\\\0][^/\\\0]*\.(errors\.csv|summary\.json)$/;
/** Larger reports are read on the disk: masking one means holding it whole. */
export const MAX_SERVED_BYTES = 64 * 1024 * 1024;

export const reportUrl = (job: string, folder: ReportFolder, name: string) =>
  `/files/${encodeURIComponent(job)}/${folder}/${encodeURIComponent(name)}`;

export interface ReportFile {
  inbox: InboxStore;
  folder: ReportFolder;
  name: string;
  kind: "csv" | "json";
  size: number;
}

/**
 * The report a link names, or undefined: only a `.errors.csv` or `.summary.json` directly in a
 * known job's done/ or rejected/ folder (or a bucket inbox's prefix). The name is a plain file name
 * (no separator, no leading dot), and a link leads nowhere else (the inbox's `stat` refuses one).
 */
export async function findReport(
  jobs: ReadonlyMap<string, JobDefinition>,
  inboxes: InboxStores,
  job: string,
  folder: string,
  name: string,
): Promise<ReportFile | undefined> {
  const def = jobs.get(job);
  if (!def || !(REPORT_FOLDERS as readonly string[]).includes(folder)) return undefined;
  if (name !== basename(name) || !REPORT_NAME.test(name)) return undefined;
  const inbox = inboxes(def.inbox);
  const area = folder as ReportFolder;
  const stats = await inbox.stat(area, name).catch(() => undefined);
  if (!stats) return undefined;
  return { inbox, folder: area, name, kind: name.endsWith(".csv") ? "csv" : "json", size: stats.bytes };
}

/** The report's text; phone numbers masked in every cell unless `reveal`. */
export async function reportText(file: ReportFile, reveal: boolean): Promise<string> {
  const text = await file.inbox.readText(file.folder, file.name, MAX_SERVED_BYTES);
  if (text === undefined) throw new Error(`${file.inbox.whereIs(file.folder, file.name)} is no longer there`);
  if (reveal) return text;
  if (file.kind === "json") return maskPhonesIn(text);
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: false });
  const rows = parsed.data.map((row) => row.map((cell) => maskPhonesIn(cell)));
  return `${Papa.unparse(rows, { newline: "\n" }).trimEnd()}\n`;
}
