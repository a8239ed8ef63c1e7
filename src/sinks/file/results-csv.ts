import { type FileHandle, open, rename, rm } from "node:fs/promises";
import { tempNameFor } from "../../lib/atomic-file.ts";
import type { ResultRecord } from "../../pipeline/model/results.ts";
import { resultsCsv } from "../../pipeline/reports/results-csv.ts";

export { RESULT_COLUMNS, resultRow } from "../../pipeline/reports/results-csv.ts";

/**
 * Writes the results CSV (`pipeline/reports/results-csv.ts`) to `path` atomically, in bounded
 * memory: a large campaign's sorted runs go beside `path` (the file sink's sweep knows their
 * names). Returns the rows written.
 */
export async function writeResultsCsv(
  path: string,
  records: AsyncIterable<ResultRecord>,
  o: { runRows?: number; callerNumber?: string | undefined } = {},
): Promise<number> {
  const tmp = tempNameFor(path);
  let out: FileHandle | undefined;
  try {
    out = await open(tmp, "w");
    const text = resultsCsv(records, { spillAt: path, ...o });
    let next = await text.next();
    while (!next.done) {
      await out.write(next.value);
      next = await text.next();
    }
    await out.sync();
    await out.close();
    out = undefined;
    await rename(tmp, path);
    return next.value;
  } finally {
    await out?.close().catch(() => undefined);
    await rm(tmp, { force: true });
  }
}
