import { reasonWords } from "../../ingest/reason-words.ts";
import type { Chart } from "./charts.ts";
import { EXPERIMENT_STYLE, experimentHtml } from "./experiment-html.ts";
import { counts, duration, headlines, num, periodText, reportTitle } from "./format.ts";
import { esc } from "./html-escape.ts";
import { INLINE, STYLE } from "./html-style.ts";
import type { ReportCampaign, ReportModel } from "./model.ts";
import {
  campaignReachText,
  campaignStateText,
  campaignsCountText,
  filesText,
  followUpsText,
  footnotes,
  nextText,
  notCalledText,
  repairsText,
  rowsText,
} from "./phrases.ts";
import { CAMPAIGNS_LISTED } from "./report-text.ts";

export interface HtmlOptions {
  /** How a chart is placed: inline SVG (the page), or an image (e-mail, by Content-ID). */
  chart?: (c: Chart) => string;
  /** A header above the title (the daemon's Reports view: the dashboard's links, other periods); trusted HTML. */
  nav?: string;
  /** Added to the `<head>` (the daemon's pages: their icon); trusted HTML. */
  head?: string;
}

const inlineSvg = (c: Chart) => c.svg;

const a = (href: string, text: string) => `<a href="${esc(href)}" style="${INLINE.link}">${esc(text)}</a>`;

/** Where a campaign's results are: its page and CSV where there is a page, else the command (or the link). */
function resultsCell(c: ReportCampaign): string {
  if (c.links) return `${a(c.links.page, "page")} · ${a(c.links.csv, "CSV")}`;
  return /^https?:\/\//.test(c.results) ? a(c.results, "results") : `<code>${esc(c.results)}</code>`;
}

/** A campaign's zone column, shown only when some campaign has a zone (callee windows). */
const hasZones = (r: ReportModel) => r.campaigns.some((c) => c.zone !== undefined);

const cell = (label: string, html: string, numeric = false) =>
  `<td data-label="${esc(label)}" style="${numeric ? INLINE.tdNum : INLINE.td}">${html}</td>`;

function campaignRows(r: ReportModel): string {
  const zoned = hasZones(r);
  const rows = r.campaigns
    .slice(0, CAMPAIGNS_LISTED)
    .map(
      (c) =>
        `<tr>${cell("Name", esc(c.name))}${
          zoned ? cell("Zone", esc(c.zone ?? "—")) : ""
        }${cell("State", esc(campaignStateText(c, r)))}${cell("Reached", esc(campaignReachText(c)), true)}${cell(
          "Meetings",
          num(c.meetings),
          true,
        )}${cell("Results", resultsCell(c))}</tr>`,
    );
  const more =
    r.campaigns.length > CAMPAIGNS_LISTED
      ? `<tr><td colspan="${zoned ? 6 : 5}" style="${INLINE.td}">… and ${num(r.campaigns.length - CAMPAIGNS_LISTED)} more</td></tr>`
      : "";
  return rows.join("") + more;
}

function campaignsTable(r: ReportModel): string {
  const th = (text: string, numeric = false) =>
    `<th style="${numeric ? INLINE.thNum : INLINE.th}">${text}</th>`;
  return `<table class="campaigns" width="100%" cellspacing="0" cellpadding="0" style="${INLINE.table}">
<thead><tr>${th("Name")}${hasZones(r) ? th("Zone") : ""}${th("State")}${th("Reached", true)}${th("Meetings", true)}${th("Results")}</tr></thead>
<tbody>${campaignRows(r)}</tbody></table>`;
}

/** Campaigns asked for and never made, with why: their contacts were not called. */
function notMadeTable(r: ReportModel): string {
  const rows = r.campaignsNotMade ?? [];
  if (rows.length === 0) return "";
  const th = (text: string, numeric = false) =>
    `<th style="${numeric ? INLINE.thNum : INLINE.th}">${text}</th>`;
  const body = rows
    .slice(0, CAMPAIGNS_LISTED)
    .map(
      (c) =>
        `<tr>${cell("Name", esc(c.name))}${cell("Outcome", esc(c.outcome))}${cell(
          "Contacts not called",
          c.contacts === null ? "—" : num(c.contacts),
          true,
        )}${cell("Reason", esc(c.reason))}</tr>`,
    )
    .join("");
  return `${h2(`Campaigns not made (${num(rows.length)})`)}<table class="campaigns not-made" width="100%" cellspacing="0" cellpadding="0" style="${INLINE.table}">
<thead><tr>${th("Name")}${th("Outcome")}${th("Contacts not called", true)}${th("Reason")}</tr></thead>
<tbody>${body}</tbody></table>`;
}

/** The headline figures: a table of cards, three to a row (a grid in a `<style>` is lost in Outlook). */
function cards(r: ReportModel): string {
  const all = headlines(r).map(
    (h) =>
      `<td class="card" width="33%" valign="top" style="${INLINE.card}"><div style="${INLINE.cardLabel}">${esc(h.label)}</div><div class="value" style="${INLINE.cardValue}">${esc(h.value)}</div><div style="${INLINE.cardChange}">${esc(h.change)}</div></td>`,
  );
  const rows: string[] = [];
  for (let i = 0; i < all.length; i += 3) rows.push(`<tr>${all.slice(i, i + 3).join("")}</tr>`);
  return `<table class="cards" role="presentation" width="100%" cellspacing="8" cellpadding="0" style="${INLINE.cards}">${rows.join("")}</table>`;
}

/** Rows of label and value, the value already HTML. */
const facts = (rows: [string, string][]) =>
  `<table width="100%" cellspacing="0" cellpadding="0" style="${INLINE.table}"><tbody>${rows
    .map(
      ([label, value]) =>
        `<tr><th style="${INLINE.th}">${label}</th><td style="${INLINE.tdNum}">${value}</td></tr>`,
    )
    .join("")}</tbody></table>`;

function callFacts(r: ReportModel): string {
  const t = r.totals;
  return facts([
    ["Transfers", num(t.transfers)],
    ["Messages sent", num(t.messages)],
    ["Talk time", `${esc(duration(t.talkTime.totalSec))} (median ${esc(duration(t.talkTime.medianSec))})`],
    ["Calls by outcome", esc(counts(t.byStatus))],
    ["Sentiment", esc(counts(t.sentiment))],
    ["Follow-ups", esc(followUpsText(r))],
  ]);
}

function fileFacts(r: ReportModel): string {
  const f = r.files;
  return facts([
    ["Files", esc(filesText(f))],
    ["Rows", esc(rowsText(f))],
    [
      "Rejected by reason",
      esc(f.rejectedByReason.map((x) => `${reasonWords(x.reason)} ${num(x.rows)}`).join(", ") || "none"),
    ],
    ["Contacts created", num(f.contactsCreated)],
    ["Not called", esc(notCalledText(f))],
    ...(f.repairs ? [["Repaired before calling", esc(repairsText(f.repairs))] as [string, string]] : []),
  ]);
}

const h2 = (text: string) => `<h2 style="${INLINE.h2}">${text}</h2>`;

/**
 * The report as HTML, the page's and the e-mail's: tables and inline styles carry the layout (a
 * mail client that drops `<style>` shows the same figures in the same places); the `<style>` adds
 * what only browsers use (a phone's stacked rows, print). Pure.
 */
export function reportHtml(r: ReportModel, charts: readonly Chart[], o: HtmlOptions = {}): string {
  const place = o.chart ?? inlineSvg;
  const next = nextText(r);
  const figures = charts
    .map(
      (c) =>
        `<div class="figure" id="${esc(c.id)}" style="${INLINE.figure}"><div style="${INLINE.caption}">${esc(c.title)}</div>${place(c)}</div>`,
    )
    .join("");
  const problems =
    r.problems.length > 0
      ? `${h2("Problems")}<ul>${r.problems.map((p) => `<li style="${INLINE.problem}">${esc(p.message)}</li>`).join("")}</ul>`
      : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(reportTitle(r))}</title>${o.head ?? ""}<style>${STYLE}${r.variants ? EXPERIMENT_STYLE : ""}</style></head>
<body style="${INLINE.body}">${o.nav ?? ""}<div class="main" style="${INLINE.main}">
<h1 style="${INLINE.h1}">${esc(reportTitle(r))}</h1>
<div style="${INLINE.muted}">${esc(periodText(r.period))}</div>
${next ? `<div class="next" style="${INLINE.muted}">${esc(next)}</div>` : ""}
${cards(r)}
${experimentHtml(r)}
${h2("Calls")}${figures}${callFacts(r)}
${h2("Contact files")}${fileFacts(r)}
${h2(`Campaigns (${campaignsCountText(r)})`)}${campaignsTable(r)}
${notMadeTable(r)}
${problems}
${footnotes(r)
  .map((line) => `<p class="note" style="${INLINE.note}">${esc(line)}</p>`)
  .join("\n")}
</div></body></html>
`;
}
