import { writeFile } from "node:fs/promises";
import type { JobDefinition } from "../../config/job-definition.ts";
import { zoneOf } from "../../config/job-zone.ts";
import type { ReportSources } from "../../pipeline/reports/gather-report.ts";
import { gatherReport } from "../../pipeline/reports/gather-report.ts";
import { askedPeriod } from "../../pipeline/reports/period.ts";
import { reportText } from "../../pipeline/reports/report-text.ts";
import { CliError } from "../cli-error.ts";

export interface PeriodReportOptions {
  job?: string;
  since?: string;
  from?: string;
  to?: string;
  html?: string;
  json?: boolean;
}

/** `vcw report --job NAME [--since D | --from ISO --to ISO]`: the report of a period, on demand. */
export async function printPeriodReport(
  o: PeriodReportOptions,
  defs: ReadonlyMap<string, JobDefinition>,
  sources: ReportSources,
): Promise<void> {
  // The caller has found the job named (or said what is wrong with its file).
  const chosen = o.job ? [defs.get(o.job)!] : [...defs.values()];
  if (chosen.length === 0) throw new CliError("no job is defined: nothing to report", 2);
  const zone = chosen.length === 1 ? zoneOf(chosen[0]) : "UTC";
  const now = Date.now();
  const period = askedPeriod(o, now, zone);
  if ("error" in period) throw new CliError(period.error, 2);
  const report = await gatherReport(chosen, period, sources, now, o.job ?? "all");
  if (o.html) {
    const { renderReportPage } = await import("../../pipeline/reports/render.ts");
    await writeFile(o.html, await renderReportPage(report));
    if (!o.json) console.log(`report page written to ${o.html}`);
  }
  if (o.json) process.stdout.write(`${JSON.stringify(report)}\n`);
  else process.stdout.write(reportText(report));
}
