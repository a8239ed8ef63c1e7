import { reportCharts } from "./charts.ts";
import type { ReportModel } from "./model.ts";
import { type HtmlOptions, reportHtml } from "./report-html.ts";

/** The report's self-contained page, charts inline as SVG. */
export async function renderReportPage(
  r: ReportModel,
  o: Pick<HtmlOptions, "nav" | "head"> = {},
): Promise<string> {
  return reportHtml(r, await reportCharts(r), o);
}
