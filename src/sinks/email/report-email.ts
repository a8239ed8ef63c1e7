import { reportCharts } from "../../pipeline/reports/charts.ts";
import { esc } from "../../pipeline/reports/html-escape.ts";
import type { ReportModel } from "../../pipeline/reports/model.ts";
import { svgToPng } from "../../pipeline/reports/png.ts";
import { reportHtml } from "../../pipeline/reports/report-html.ts";
import { reportText } from "../../pipeline/reports/report-text.ts";

export interface EmailImage {
  filename: string;
  cid: string;
  contentType: "image/png";
  content: Buffer;
}

export interface ReportEmail {
  html: string;
  text: string;
  /** The charts as PNG, shown in the HTML part by Content-ID (mail clients show no SVG). */
  images: EmailImage[];
}

/** The charts' width in the e-mail (px); the PNG is drawn at twice it, sharp on a dense screen. */
const CHART_PNG_WIDTH = 600;

/** The report as an e-mail: an HTML part with inline PNG charts, and a plain-text part. */
export async function reportEmail(r: ReportModel): Promise<ReportEmail> {
  const charts = await reportCharts(r);
  const images = await Promise.all(
    charts.map(async (c) => ({
      filename: `${c.id}.png`,
      cid: `${c.id}@vcw`,
      contentType: "image/png" as const,
      content: await svgToPng(c.svg),
    })),
  );
  const html = reportHtml(r, charts, {
    chart: (c) =>
      `<img src="cid:${esc(c.id)}@vcw" alt="${esc(c.title)}" width="${CHART_PNG_WIDTH}" style="display:block;width:100%;max-width:${CHART_PNG_WIDTH}px;height:auto">`,
  });
  const link = r.pageUrl ? `\nThe report online: ${r.pageUrl}\n` : "";
  return { html, text: reportText(r) + link, images };
}
