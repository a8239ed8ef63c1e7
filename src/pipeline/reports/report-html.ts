import type { Chart } from "./charts.ts";
import { EXPERIMENT_STYLE, experimentHtml } from "./experiment-html.ts";
import { counts, duration, headlines, num, pct, periodText, reportTitle } from "./format.ts";
import { esc } from "./html-escape.ts";
import type { ReportModel } from "./model.ts";
import { CAMPAIGNS_LISTED, otherReasons } from "./report-text.ts";

export { esc } from "./html-escape.ts";

/** Readable at 390 px (one column, charts scaled down), printable (no background, no breaks in a block). */
const STYLE = `
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#212529;margin:0;background:#f8f9fa}
main{max-width:760px;margin:0 auto;padding:16px}
h1{font-size:1.35rem;margin:.2rem 0}h2{font-size:1.05rem;margin:1.4rem 0 .5rem}
.period,.note{color:#555;font-size:.9rem}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(130px,1fr));gap:8px;margin-top:12px}
.card{background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:10px}
.card .label{font-size:.8rem;color:#555}.card .value{font-size:1.25rem;font-weight:600}
.card .change{font-size:.8rem;color:#555}
figure{margin:0 0 12px;background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:8px}
figure svg,figure img{max-width:100%;height:auto;display:block}
figcaption{font-size:.85rem;font-weight:600;margin-bottom:4px}
table{width:100%;border-collapse:collapse;background:#fff;font-size:.85rem}
th,td{text-align:left;padding:6px;border-bottom:1px solid #dee2e6;vertical-align:top}
td.n,th.n{text-align:right}
.scroll{overflow-x:auto}
nav{font-size:.9rem;margin-bottom:8px}nav a{margin-right:12px}
ul.problems li{color:#c92a2a}
@media print{nav{display:none}body{background:none;font-size:11pt}main{max-width:none;padding:0}
.card,figure,table,section{break-inside:avoid}a{color:inherit;text-decoration:none}.scroll{overflow:visible}}
`;

export interface HtmlOptions {
  /** How a chart is placed: inline SVG (the page), or an image (e-mail, by Content-ID). */
  chart?: (c: Chart) => string;
  /** Links above the title (the daemon's Reports view: other periods, other jobs); trusted HTML. */
  nav?: string;
}

const inlineSvg = (c: Chart) => c.svg;

const link = (target: string) =>
  /^https?:\/\//.test(target) ? `<a href="${esc(target)}">results</a>` : `<code>${esc(target)}</code>`;

/** A campaign's zone column, shown only when some campaign has a zone (callee windows). */
const hasZones = (r: ReportModel) => r.campaigns.some((c) => c.zone !== undefined);

function campaignRows(r: ReportModel): string {
  const zoned = hasZones(r);
  const rows = r.campaigns
    .slice(0, CAMPAIGNS_LISTED)
    .map(
      (c) =>
        `<tr><td>${esc(c.name)}${c.attempt > 0 ? ` <small>(follow-up ${c.attempt})</small>` : ""}</td>${zoned ? `<td>${esc(c.zone ?? "—")}</td>` : ""}<td>${esc(c.state)}</td><td class="n">${num(c.contacts)}</td><td class="n">${pct(c.reachRate)}</td><td class="n">${num(c.meetings)}</td><td>${link(c.results)}</td></tr>`,
    );
  const more =
    r.campaigns.length > CAMPAIGNS_LISTED
      ? `<tr><td colspan="${zoned ? 7 : 6}">… and ${num(r.campaigns.length - CAMPAIGNS_LISTED)} more</td></tr>`
      : "";
  return rows.join("") + more;
}

/** A self-contained page of the report: inline CSS, inline SVG charts, no script. Pure. */
export function reportHtml(r: ReportModel, charts: readonly Chart[], o: HtmlOptions = {}): string {
  const place = o.chart ?? inlineSvg;
  const t = r.totals;
  const f = r.files;
  const cards = headlines(r)
    .map(
      (h) =>
        `<div class="card"><div class="label">${esc(h.label)}</div><div class="value">${esc(h.value)}</div><div class="change">${esc(h.change)}</div></div>`,
    )
    .join("");
  const figures = charts
    .map((c) => `<figure id="${esc(c.id)}"><figcaption>${esc(c.title)}</figcaption>${place(c)}</figure>`)
    .join("");
  const problems =
    r.problems.length > 0
      ? `<section><h2>Problems</h2><ul class="problems">${r.problems.map((p) => `<li>${esc(p.message)}</li>`).join("")}</ul></section>`
      : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(reportTitle(r))}</title><style>${STYLE}${r.variants ? EXPERIMENT_STYLE : ""}</style></head>
<body><main>
${o.nav ? `<nav>${o.nav}</nav>` : ""}
<h1>${esc(reportTitle(r))}</h1>
<div class="period">${esc(periodText(r.period))}</div>
<div class="cards">${cards}</div>
${experimentHtml(r)}
<section><h2>Calls</h2>${figures}
<table><tbody>
<tr><th>Transfers</th><td class="n">${num(t.transfers)}</td></tr>
<tr><th>Messages sent</th><td class="n">${num(t.messages)}</td></tr>
<tr><th>Talk time</th><td class="n">${esc(duration(t.talkTime.totalSec))} (median ${esc(duration(t.talkTime.medianSec))})</td></tr>
<tr><th>Calls by outcome</th><td class="n">${esc(counts(t.byStatus))}</td></tr>
<tr><th>Sentiment</th><td class="n">${esc(counts(t.sentiment))}</td></tr>
<tr><th>Follow-ups</th><td class="n">${num(t.followUps.calls)} calls in ${num(t.followUps.campaigns)} campaign(s): ${num(t.followUps.reached)} reached, ${num(t.followUps.meetings)} meeting(s)</td></tr>
</tbody></table></section>
<section><h2>Contact files</h2><table><tbody>
<tr><th>Files</th><td class="n">${num(f.imported)} imported, ${num(f.rejected)} rejected</td></tr>
<tr><th>Rows</th><td class="n">${num(f.rowsRead)} read, ${num(f.valid)} valid, ${num(f.rowsRejected)} rejected, ${num(f.duplicates)} duplicates</td></tr>
<tr><th>Rejected by reason</th><td class="n">${esc(f.rejectedByReason.map((x) => `${x.reason} ${num(x.rows)}`).join(", ") || "none")}</td></tr>
<tr><th>Contacts created</th><td class="n">${num(f.contactsCreated)}</td></tr>
<tr><th>Not called</th><td class="n">${num(f.notCalled.optedOut)} opted out, ${num(f.notCalled.recentlyCalled)} called recently${esc(otherReasons(f.notCalled.byReason))}</td></tr>
</tbody></table></section>
<section><h2>Campaigns (${num(r.campaigns.length)})</h2><div class="scroll"><table>
<thead><tr><th>Name</th>${hasZones(r) ? "<th>Zone</th>" : ""}<th>State</th><th class="n">Contacts</th><th class="n">Reached</th><th class="n">Meetings</th><th>Results</th></tr></thead>
<tbody>${campaignRows(r)}</tbody></table></div></section>
${problems}
<p class="note">Reached means a call ended in: ${esc(r.reachedStatuses.join(", "))}. ${esc(r.timesNote)}
The previous period is ${esc(periodText(r.previous.period))}. Made ${esc(r.generatedAt)}.</p>
</main></body></html>
`;
}
