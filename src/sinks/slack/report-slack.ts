import { counted } from "../../lib/plural.ts";
import { METRIC_WORDS, metricOf } from "../../pipeline/reports/experiment-verdict.ts";
import { headlines, pct, periodText, reportTitle } from "../../pipeline/reports/format.ts";
import type { ReportModel } from "../../pipeline/reports/model.ts";
import { filesText, repairsText, waitingText } from "../../pipeline/reports/phrases.ts";
import { reachDefinition } from "../../pipeline/reports/reach.ts";

/**
 * Slack reads `&`, `<` and `>` as markup in every text (`<!channel>`, `<url|label>`): they are
 * escaped as Slack asks, so a file name is shown, never obeyed.
 */
export const slackEscape = (text: string) =>
  text.replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;"));

/** A message with every `text` in it escaped (the markup vcw writes is `*bold*` and `_italic_` only). */
function escaped<T>(value: T): T {
  if (Array.isArray(value)) return value.map(escaped) as T;
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        k === "text" && typeof v === "string" ? slackEscape(v) : escaped(v),
      ]),
    ) as T;
  return value;
}

/** A Slack Block Kit message: headline numbers with their change, problems, a link to the page. Pure. */
export function reportBlocks(r: ReportModel, pageUrl?: string): { text: string; blocks: unknown[] } {
  return escaped(unescapedBlocks(r, pageUrl));
}

function unescapedBlocks(r: ReportModel, pageUrl?: string): { text: string; blocks: unknown[] } {
  const title = reportTitle(r);
  const fields = headlines(r).map((h) => ({
    type: "mrkdwn",
    text: `*${h.label}*\n${h.value}  _${h.change}_`,
  }));
  const blocks: unknown[] = [
    { type: "header", text: { type: "plain_text", text: title.slice(0, 150) } },
    { type: "context", elements: [{ type: "mrkdwn", text: periodText(r.period) }] },
    { type: "section", fields },
    {
      type: "section",
      text: {
        type: "mrkdwn",
        text: `${counted(r.campaigns.length, "campaign")}${waitingText(r) ? ` (${waitingText(r)})` : ""}; ${filesText(r.files)}; ${counted(r.files.contactsCreated, "contact")} created.${r.files.repairs ? ` Repaired before calling: ${repairsText(r.files.repairs)}.` : ""}`,
      },
    },
  ];
  if (r.experiment)
    blocks.push({ type: "section", text: { type: "mrkdwn", text: experimentMrkdwn(r).slice(0, 2900) } });
  if (r.problems.length > 0)
    blocks.push({
      type: "section",
      text: {
        type: "mrkdwn",
        text: `*Problems*\n${r.problems
          .slice(0, 10)
          .map((p) => `• ${p.message}`)
          .join("\n")
          .slice(0, 2900)}`,
      },
    });
  if (pageUrl)
    blocks.push({
      type: "actions",
      elements: [{ type: "button", text: { type: "plain_text", text: "Open the report" }, url: pageUrl }],
    });
  blocks.push({
    type: "context",
    elements: [{ type: "mrkdwn", text: `${reachDefinition(r.reachedStatuses)} ${r.timesNote}` }],
  });
  const first = headlines(r)
    .map((h) => `${h.label} ${h.value}`)
    .join(", ");
  return { text: `${title}: ${first}`, blocks };
}

/** The experiment for Slack: each variant's share on the metric with its interval, then the verdict. */
function experimentMrkdwn(r: ReportModel): string {
  const metric = r.experiment!.metric;
  const lines = (r.variants ?? []).map((v) => {
    const m = metricOf(v, metric).rate;
    return `• *${v.name}*: ${pct(m.rate)} of ${v.contactsCalled} (95%: ${pct(m.low)}–${pct(m.high)}), opted out ${pct(v.optOutRate.rate)}`;
  });
  return [`*Experiment: ${METRIC_WORDS[metric]}*`, ...lines, r.experiment!.summary].join("\n");
}
