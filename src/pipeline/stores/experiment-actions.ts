import type { ExperimentDecision } from "./experiment-store.ts";

/**
 * What an operator's `vcw experiment stop|promote` records, or why not (pure): stop takes one
 * variant out of assignment; promote gives one every new contact (the others stopped). A variant
 * decided about stays so; the last open variant is never stopped (pause the job instead).
 */
export function operatorDecisions(
  action: "stop" | "promote",
  variant: string,
  variants: readonly string[],
  current: readonly ExperimentDecision[],
  now: number,
): ExperimentDecision[] | { error: string } {
  if (!variants.includes(variant))
    return { error: `the job has no variant "${variant}" (variants: ${variants.join(", ")})` };
  const promoted = current.find((d) => d.action === "promote");
  if (promoted) return { error: `${promoted.variant} was promoted already: every new contact goes to it` };
  const decided = new Map(current.map((d) => [d.variant, d]));
  const earlier = decided.get(variant);
  if (earlier)
    return {
      error: `${variant} was stopped already (by the ${earlier.by}, ${new Date(earlier.at).toISOString()}: ${earlier.reason})`,
    };
  const open = variants.filter((v) => !decided.has(v));
  const by = "operator" as const;
  if (action === "stop") {
    if (open.length <= 1)
      return {
        error: `${variant} is the last variant given new contacts: pause the job instead (vcw pause)`,
      };
    return [{ variant, action, by, at: now, reason: "stopped by the operator (vcw experiment stop)" }];
  }
  return [
    { variant, action, by, at: now, reason: "promoted by the operator (vcw experiment promote)" },
    ...open
      .filter((v) => v !== variant)
      .map((v) => ({ variant: v, action: "stop" as const, by, at: now, reason: `${variant} was promoted` })),
  ];
}
