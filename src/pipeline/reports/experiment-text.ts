import { counted } from "../../lib/plural.ts";
import { MISSING_WORDS } from "./experiment-missing.ts";
import { METRIC_WORDS, points } from "./experiment-verdict.ts";
import { counts, duration, num, pct } from "./format.ts";
import type { GuardrailReading, MissingReason, RateInterval, ReportModel, ReportVariant } from "./model.ts";

const withInterval = (r: RateInterval) => `${pct(r.rate)} (95%: ${pct(r.low)}–${pct(r.high)})`;

/** A variant's campaigns never made, in words: "; 3 campaigns not made (8 contacts not called): failed: ...". */
const notMadeWords = (v: ReportVariant) =>
  v.notMade
    ? `; ${counted(v.notMade.campaigns, "campaign")} not made (${counted(v.notMade.contacts, "contact")} not called): ${v.notMade.reasons.join("; ")}`
    : "";

/** One variant in a line: per contact, each rate with its interval; one whose campaigns all failed got nobody. */
export function variantLine(v: ReportVariant): string {
  const given =
    v.assigned !== undefined
      ? ` (${num(v.assigned)} given it${v.share !== undefined ? `, planned ${pct(v.share)}` : ""})`
      : "";
  if (v.contactsCalled === 0 && v.notMade) return `- ${v.name}: got nobody${given}${notMadeWords(v)}`;
  return `- ${v.name}: ${num(v.contactsCalled)} contacts${given}, ${num(v.calls)} calls; reached ${num(v.reached)} ${withInterval(v.reachedRate)}, meetings ${num(v.meetings)} ${withInterval(v.meetingRate)}, transfers ${num(v.transfers)} ${withInterval(v.transferRate)}, opted out ${num(v.optedOut)} ${withInterval(v.optOutRate)}; talk time ${duration(v.talkTime.totalSec)} (${duration(v.talkTime.perContactSec)} a contact); sentiment ${counts(v.sentiment)}${notMadeWords(v)}`;
}

/** Why a variant's contacts without a call are missing, in words: "600 in no campaign made (…)". */
export const missingWords = (m: Partial<Record<MissingReason, number>>) =>
  Object.entries(m)
    .map(([reason, n]) => `${num(n)} ${MISSING_WORDS[reason as MissingReason]}`)
    .join(", ");

/** A guardrail metric in words: "opt-outs 1.2% (always-valid 0.8%–2.9%)", "talk time +12 s (−3 s to +27 s)". */
export function guardrailWords(g: GuardrailReading): string {
  const flag = g.flagged ? " [flagged]" : "";
  if (g.limit !== undefined)
    return `opt-outs ${pct(g.value)} (always-valid ${pct(g.low)}–${pct(g.high)}; limit ${pct(g.limit)})${flag}`;
  if (g.metric === "talkTime") {
    const s = (x: number) => `${x > 0 ? "+" : x < 0 ? "−" : ""}${Math.round(Math.abs(x))} s`;
    return `talk time ${s(g.value)} (always-valid ${Number.isFinite(g.low) ? `${s(g.low)} to ${s(g.high)}` : "not yet"})${flag}`;
  }
  const name = g.metric === "optOuts" ? "opt-outs" : "transfers";
  return `${name} ${points(g.value)} (always-valid ${Number.isFinite(g.low) ? `${points(g.low)} to ${points(g.high)}` : "not yet"})${flag}`;
}

/** The report's experiment section as text lines (none without variants). Pure. */
export function experimentLines(r: Pick<ReportModel, "variants" | "experiment">): string[] {
  if (!r.variants || !r.experiment) return [];
  const e = r.experiment;
  const lines = ["", `Experiment${e.name ? ` ${e.name}` : ""}, compared on ${METRIC_WORDS[e.metric]}:`];
  for (const v of r.variants) {
    lines.push(variantLine(v));
    if (v.missing && Object.keys(v.missing).length > 0)
      lines.push(`  not called: ${missingWords(v.missing)}`);
    if (v.guardrails)
      lines.push(
        `  guardrails${v.versus ? ` against ${v.versus.against}` : ""}: ${v.guardrails.map(guardrailWords).join("; ")}`,
      );
  }
  lines.push(e.summary);
  for (const c of e.sampleRatio ?? [])
    if (!e.summary.includes(c.words)) lines.push(`Sample ratio: ${c.words}`);
  if (e.concurrent) lines.push(e.concurrent);
  if (e.exposedToTwo)
    lines.push(`Contacts called under two variants: ${num(e.exposedToTwo)} (counted under the first).`);
  if (e.corrections)
    lines.push(
      `How it is judged: ${e.corrections} Each rate's own interval above is a fixed-horizon 95% (Wilson).`,
    );
  return lines;
}
