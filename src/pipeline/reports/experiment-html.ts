import { guardrailWords, missingWords } from "./experiment-text.ts";
import { METRIC_WORDS, metricOf, points } from "./experiment-verdict.ts";
import { duration, num, pct } from "./format.ts";
import { esc } from "./html-escape.ts";
import type { RateInterval, ReportModel, ReportVariant } from "./model.ts";

/** The section's own styles: an interval drawn as a bar on a 0–100% track, the estimate a tick. */
export const EXPERIMENT_STYLE = `
#experiment td.n{white-space:nowrap}
.ci{position:relative;height:14px;background:#f1f3f5;border-radius:7px;min-width:120px}
.ci .span{position:absolute;top:3px;height:8px;background:#74c0fc;border-radius:4px}
.ci .at{position:absolute;top:0;width:3px;height:14px;background:#1864ab}
.verdict{background:#fff;border:1px solid #dee2e6;border-left:4px solid #1864ab;border-radius:6px;padding:8px 10px;margin-top:8px}
.srm{background:#fff5f5;border:1px solid #ffc9c9;border-left:4px solid #c92a2a;border-radius:6px;padding:8px 10px;margin-top:8px}
`;

const rateCell = (r: RateInterval) => `${pct(r.rate)}<br><small>${pct(r.low)}–${pct(r.high)}</small>`;

/** The interval as a bar: from low to high of a 0–100% track, the estimate marked. */
const bar = (r: RateInterval) =>
  `<div class="ci" title="${pct(r.low)}–${pct(r.high)}"><span class="span" style="left:${(r.low * 100).toFixed(1)}%;width:${((r.high - r.low) * 100).toFixed(1)}%"></span><span class="at" style="left:calc(${(r.rate * 100).toFixed(1)}% - 1px)"></span></div>`;

/** The comparison with the first variant: the always-valid interval (the decision's), the fixed one labelled. */
const versusCell = (v: ReportVariant) => {
  const c = v.versus;
  if (!c) return "<td>control</td>";
  const seq = c.sequential ? `${points(c.sequential.low)} to ${points(c.sequential.high)}` : "not yet";
  return `<td class="n">${esc(points(c.difference.value))} <b>${esc(c.verdict)}</b><br><small>always-valid ${esc(seq)}<br>fixed-horizon ${esc(points(c.difference.low))} to ${esc(points(c.difference.high))}</small></td>`;
};

const givenCell = (v: ReportVariant) =>
  v.assigned === undefined
    ? "<td></td>"
    : `<td class="n">${num(v.assigned)}${v.share !== undefined ? `<br><small>planned ${pct(v.share)}</small>` : ""}</td>`;

/** The report's experiment section as HTML (empty without variants). Pure. */
export function experimentHtml(r: Pick<ReportModel, "variants" | "experiment">): string {
  if (!r.variants || !r.experiment) return "";
  const e = r.experiment;
  const metric = e.metric;
  const rows = r.variants
    .map(
      (v) =>
        `<tr><td><b>${esc(v.name)}</b></td>${givenCell(v)}<td class="n">${num(v.contactsCalled)}</td><td class="n">${rateCell(v.reachedRate)}</td><td class="n">${rateCell(v.meetingRate)}</td><td class="n">${rateCell(v.transferRate)}</td><td class="n">${rateCell(v.optOutRate)}</td><td class="n">${esc(duration(v.talkTime.perContactSec))}</td><td>${bar(metricOf(v, metric).rate)}</td>${versusCell(v)}</tr>`,
    )
    .join("");
  const notes = r.variants.flatMap((v) => [
    ...(v.missing && Object.keys(v.missing).length > 0
      ? [`${v.name} not called: ${missingWords(v.missing)}`]
      : []),
    ...(v.guardrails ? [`${v.name} guardrails: ${v.guardrails.map(guardrailWords).join("; ")}`] : []),
  ]);
  const mismatch = (e.sampleRatio ?? []).filter((c) => c.mismatch);
  const fits = (e.sampleRatio ?? []).filter((c) => !c.mismatch);
  return `<section id="experiment"><h2>Experiment: ${esc(METRIC_WORDS[metric])}</h2>${mismatch.map((c) => `<p class="srm">${esc(c.words)}</p>`).join("")}<div class="scroll"><table>
<thead><tr><th>Variant</th><th class="n">Given it</th><th class="n">Contacts called</th><th class="n">Reached</th><th class="n">Meetings</th><th class="n">Transfers</th><th class="n">Opted out</th><th class="n">Talk a contact</th><th>Fixed 95% interval</th><th class="n">Against the first</th></tr></thead>
<tbody>${rows}</tbody></table></div>
<p class="verdict">${esc(e.summary)}</p>
${notes.map((n) => `<p class="note">${esc(n)}</p>`).join("")}${fits.map((c) => `<p class="note">${esc(c.words)}</p>`).join("")}${e.concurrent ? `<p class="note">${esc(e.concurrent)}</p>` : ""}${e.exposedToTwo ? `<p class="note">Contacts called under two variants: ${num(e.exposedToTwo)} (counted under the first).</p>` : ""}
<p class="note">Shares are of contacts called (a contact is reached if any of its calls was), over the whole experiment, with Wilson fixed-horizon 95% intervals; the difference's fixed-horizon interval is Newcombe's. ${esc(e.corrections ?? "")}</p></section>`;
}
