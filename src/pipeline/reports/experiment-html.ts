import { METRIC_WORDS, metricOf } from "./experiment-verdict.ts";
import { duration, num, pct } from "./format.ts";
import { esc } from "./html-escape.ts";
import type { RateInterval, ReportModel } from "./model.ts";

/** The section's own styles: an interval drawn as a bar on a 0–100% track, the estimate a tick. */
export const EXPERIMENT_STYLE = `
#experiment td.n{white-space:nowrap}
.ci{position:relative;height:14px;background:#f1f3f5;border-radius:7px;min-width:120px}
.ci .span{position:absolute;top:3px;height:8px;background:#74c0fc;border-radius:4px}
.ci .at{position:absolute;top:0;width:3px;height:14px;background:#1864ab}
.verdict{background:#fff;border:1px solid #dee2e6;border-left:4px solid #1864ab;border-radius:6px;padding:8px 10px;margin-top:8px}
`;

const rateCell = (r: RateInterval) => `${pct(r.rate)}<br><small>${pct(r.low)}–${pct(r.high)}</small>`;

/** The interval as a bar: from low to high of a 0–100% track, the estimate marked. */
const bar = (r: RateInterval) =>
  `<div class="ci" title="${pct(r.low)}–${pct(r.high)}"><span class="span" style="left:${(r.low * 100).toFixed(1)}%;width:${((r.high - r.low) * 100).toFixed(1)}%"></span><span class="at" style="left:calc(${(r.rate * 100).toFixed(1)}% - 1px)"></span></div>`;

/** The report's experiment section as HTML (empty without variants). Pure. */
export function experimentHtml(r: ReportModel): string {
  if (!r.variants || !r.experiment) return "";
  const metric = r.experiment.metric;
  const rows = r.variants
    .map(
      (v) =>
        `<tr><td><b>${esc(v.name)}</b></td><td class="n">${num(v.contactsCalled)}</td><td class="n">${rateCell(v.reachedRate)}</td><td class="n">${rateCell(v.meetingRate)}</td><td class="n">${rateCell(v.transferRate)}</td><td class="n">${rateCell(v.optOutRate)}</td><td class="n">${esc(duration(v.talkTime.perContactSec))}</td><td>${bar(metricOf(v, metric).rate)}</td></tr>`,
    )
    .join("");
  return `<section id="experiment"><h2>Experiment: ${esc(METRIC_WORDS[metric])}</h2><div class="scroll"><table>
<thead><tr><th>Variant</th><th class="n">Contacts</th><th class="n">Reached</th><th class="n">Meetings</th><th class="n">Transfers</th><th class="n">Opted out</th><th class="n">Talk a contact</th><th>95% interval</th></tr></thead>
<tbody>${rows}</tbody></table></div>
<p class="verdict">${esc(r.experiment.summary)}</p>
<p class="note">Shares are of contacts called (a contact is reached if any of its calls was), with Wilson 95% intervals; the difference's interval is Newcombe's.</p></section>`;
}
