import type { JobDefinition } from "../../config/job-definition.ts";
import { readFileRows } from "../calling/gather-facts.ts";
import type { FileRows, FileRowsStore } from "../stores/file-rows.ts";

/**
 * A file's valid rows, looked up once and shared by its listing count, its plan and each of its
 * campaigns: as its import kept them (read once, at import), or, when no attempt kept them whole
 * (a file too large, rows expired, a file settled before), read from the file where it is now.
 */
export function keptRows(
  def: JobDefinition,
  /** `path`: where the file is readable now (a bucket's object is downloaded only when asked). */
  f: { creator: string; path: () => Promise<string> },
  kept: Pick<FileRowsStore, "read">,
): () => Promise<FileRows> {
  let rows: Promise<FileRows> | undefined;
  return () => {
    rows ??= kept.read(f.creator).then((found) => found ?? f.path().then((path) => readFileRows(def, path)));
    return rows;
  };
}
