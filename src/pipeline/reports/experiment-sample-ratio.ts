import { SRM_ALARM_P, sampleRatio } from "../stats/sample-ratio.ts";
import { MISSING_WORDS } from "./experiment-missing.ts";
import { num, pct } from "./format.ts";
import type { MissingReason, SampleRatioCheck } from "./model.ts";

/** One variant's counts for the checks: its share, contacts given it (when known), called, and why the rest are missing. */
export interface SplitCounts {
  name: string;
  share: number;
  assigned?: number | undefined;
  called: number;
  missing?: Partial<Record<MissingReason, number>> | undefined;
}

const pText = (p: number) => (p < 1e-6 ? p.toExponential(1) : String(Math.round(p * 10_000) / 10_000));

/**
 * The sample ratio checks (Fabijan et al. 2019), over the time before any decision: contacts given
 * each variant against the shares (the assignment itself), and contacts called against those given
 * (a refused campaign, a slower assistant): Pearson's chi-square each, alarm at p < 0.001.
 */
export function sampleRatioChecks(split: readonly SplitCounts[]): SampleRatioCheck[] {
  const checks: SampleRatioCheck[] = [];
  const known = split.every((s) => s.assigned !== undefined) && split.some((s) => (s.assigned ?? 0) > 0);
  if (known) {
    const r = sampleRatio(
      split.map((s) => s.assigned!),
      split.map((s) => s.share),
    );
    const counts = split.map((s) => `${s.name} ${num(s.assigned!)} (planned ${pct(s.share)})`).join(", ");
    checks.push({
      of: "assigned",
      chiSquare: r.chiSquare,
      p: r.p,
      mismatch: r.mismatch,
      words: r.mismatch
        ? `Sample ratio mismatch in assignment (p = ${pText(r.p)} < ${SRM_ALARM_P}): contacts given ${counts}.`
        : `Contacts given each variant fit the shares (p = ${pText(r.p)}): ${counts}.`,
    });
  }
  if (split.reduce((n, s) => n + s.called, 0) > 0) {
    const expected = split.map((s) => (known ? s.assigned! : s.share));
    const r = sampleRatio(
      split.map((s) => s.called),
      expected,
    );
    const counts = split
      .map((s) =>
        known
          ? `${s.name} ${num(s.called)} of ${num(s.assigned!)} given it (${pct(s.assigned! > 0 ? s.called / s.assigned! : 0)})`
          : `${s.name} ${num(s.called)}`,
      )
      .join(", ");
    const why = split
      .filter((s) => s.missing && Object.keys(s.missing).length > 0)
      .map(
        (s) =>
          `${s.name}: ${Object.entries(s.missing!)
            .map(([reason, n]) => `${num(n)} ${MISSING_WORDS[reason as MissingReason]}`)
            .join(", ")}`,
      )
      .join("; ");
    checks.push({
      of: "called",
      chiSquare: r.chiSquare,
      p: r.p,
      mismatch: r.mismatch,
      words: r.mismatch
        ? `Sample ratio mismatch (p = ${pText(r.p)} < ${SRM_ALARM_P}): contacts called ${counts}${why ? `; missing: ${why}` : ""}. The comparison is unreliable while this stands: the guardrail makes no comparison stop.`
        : `Contacts called fit ${known ? "those given each variant" : "the shares"} (p = ${pText(r.p)}): ${counts}.`,
    });
  }
  return checks;
}
