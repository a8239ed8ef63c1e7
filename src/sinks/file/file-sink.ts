import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import lockfile from "proper-lockfile";
import { appendOnce } from "../../lib/append-once.ts";
import { sweepTemporaryFiles, writeFileAtomic } from "../../lib/atomic-file.ts";
import { campaignFileBase } from "../../lib/campaign-file-name.ts";
import { safeFileName } from "../../lib/safe-file-name.ts";
import { reportFileBase } from "../../pipeline/reports/format.ts";
import type { ReportModel } from "../../pipeline/reports/model.ts";
import type { Delivery, Sink } from "../delivery.ts";
import { writeResultsCsv } from "./results-csv.ts";

export { RESULT_COLUMNS, resultRow, writeResultsCsv } from "./results-csv.ts";

/**
 * Per campaign: `<name>.<id>.results.csv` (`campaign-file-name.ts`) (one row per contact, sorted by phone, rewritten whole,
 * atomically, in bounded memory: `results-csv.ts`) and `<name>.<id>.events.jsonl` (one line per summary delivered, each key once); reports
 * go to `<job>.<period>.html` and `.json`. Several processes may deliver to one folder at once: each delivery holds
 * a lock file (proper-lockfile) while it checks the log for its key and appends its one line, so
 * no line is lost or written twice.
 */
/**
 * A report as `<job>.<period>.html` (the page) and `.json` (the model), each written atomically:
 * a version's content is fixed, so writing it again (another process, a retry) changes nothing.
 */
async function writeReport(dir: string, r: ReportModel): Promise<void> {
  const base = safeFileName(reportFileBase(r));
  await writeFileAtomic(join(dir, `${base}.json`), `${JSON.stringify(r, null, 2)}\n`);
  // Charts load Vega: only when a report is written, so commands that don't pay for it.
  const { renderReportPage } = await import("../../pipeline/reports/render.ts");
  await writeFileAtomic(join(dir, `${base}.html`), await renderReportPage(r));
}

export function fileSink(o: { dir: string }): Sink {
  return {
    async deliver(d: Delivery) {
      await mkdir(o.dir, { recursive: true });
      const p = d.payload;
      if (p.kind === "report") return writeReport(o.dir, p);
      const base = campaignFileBase(p.campaign);
      const log = join(o.dir, `${base}.events.jsonl`);
      const release = await lockfile.lock(log, {
        realpath: false,
        stale: 10_000,
        retries: { retries: 200, minTimeout: 10, maxTimeout: 250, randomize: true },
      });
      try {
        // Under the lock no other writer of this file is alive: a temporary file is a killed one's.
        await sweepTemporaryFiles(o.dir, `${base}.`);
        if (d.records)
          await writeResultsCsv(join(o.dir, `${base}.results.csv`), d.records(), {
            callerNumber: p.campaign.dialerNumber,
          });
        await appendOnce(log, d.idempotencyKey, () =>
          JSON.stringify({ key: d.idempotencyKey, at: new Date().toISOString(), payload: p }),
        );
      } finally {
        await release();
      }
    },
  };
}
