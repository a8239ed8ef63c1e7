import { lstat, readFile, realpath } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import Papa from "papaparse";
import type { JobDefinition } from "../config/job-definition.ts";
import { dropFolder } from "../inbox/drop-folder.ts";
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
  path: string;
  kind: "csv" | "json";
  size: number;
}

/**
 * The report a link names, or undefined: only a `.errors.csv` or `.summary.json` directly in a
 * known job's done/ or rejected/ folder. The name is a plain file name (no separator, no leading
 * dot), and the file's real path must still be in that folder, so a symbolic link leads nowhere else.
 */
export async function findReport(
  jobs: ReadonlyMap<string, JobDefinition>,
  job: string,
  folder: string,
  name: string,
): Promise<ReportFile | undefined> {
  const def = jobs.get(job);
  if (!def || !(REPORT_FOLDERS as readonly string[]).includes(folder)) return undefined;
  if (name !== basename(name) || !REPORT_NAME.test(name)) return undefined;
  const dir = dropFolder(def.inbox)[folder as ReportFolder];
  const path = join(dir, name);
  try {
    const [real, realDir, stats] = await Promise.all([realpath(path), realpath(dir), lstat(path)]);
    if (dirname(real) !== realDir || !stats.isFile()) return undefined;
    return { path: real, kind: name.endsWith(".csv") ? "csv" : "json", size: stats.size };
  } catch {
    return undefined;
  }
}

/** The report's text; phone numbers masked in every cell unless `reveal`. */
export async function reportText(file: ReportFile, reveal: boolean): Promise<string> {
  const text = await readFile(file.path, "utf8");
  if (reveal) return text;
  if (file.kind === "json") return maskPhonesIn(text);
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: false });
  const rows = parsed.data.map((row) => row.map((cell) => maskPhonesIn(cell)));
  return `${Papa.unparse(rows, { newline: "\n" }).trimEnd()}\n`;
}
