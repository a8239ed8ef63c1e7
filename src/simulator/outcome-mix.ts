import { readFileSync } from "node:fs";
import { z } from "zod";
import type { CallModel, FinalStatus } from "./call-plan.ts";

const STATUSES = ["completed", "no-answer", "busy", "voicemail", "failed", "opted-out"] as const;

/** One mix: final status -> weight; a status left out never happens. */
const Mix = z
  .record(z.string(), z.number().min(0, "must be a weight of 0 or more"))
  .superRefine((mix, ctx) => {
    for (const key of Object.keys(mix))
      if (!(STATUSES as readonly string[]).includes(key))
        ctx.addIssue({
          code: "custom",
          message: `is not a status: one of ${STATUSES.join(", ")}`,
          path: [key],
        });
    if (!Object.values(mix).some((w) => w > 0))
      ctx.addIssue({ code: "custom", message: "must give at least one status a weight above 0" });
  });

/** Assistant id or name -> its own mix (`--outcomes-by-assistant`). */
export const OutcomeMixes = z.record(z.string().min(1), Mix);
export type OutcomeMixes = z.output<typeof OutcomeMixes>;

/**
 * `--outcomes-by-assistant`: JSON, or `@FILE` holding it, such as
 * `{"Ava":{"completed":80,"no-answer":20}}`. A bad value names the assistant and the status.
 */
export function parseOutcomeMixes(value: string): OutcomeMixes {
  const fromFile = value.startsWith("@");
  let json: unknown;
  try {
    json = JSON.parse(fromFile ? readFileSync(value.slice(1), "utf8") : value);
  } catch (error) {
    throw new Error(`${fromFile ? value.slice(1) : "the value"} is not JSON: ${(error as Error).message}`);
  }
  const parsed = OutcomeMixes.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${issue.path.join(".") || "the value"}: ${issue.message}`);
  }
  return parsed.data;
}

/** The outcome weights of calls made by `assistant`: its own mix (by id, then name), else the model's. */
export function outcomesFor(
  model: CallModel,
  assistant: { id: string; name?: unknown },
): CallModel["outcomes"] {
  const mixes = model.outcomesByAssistant;
  const own =
    mixes?.[assistant.id] ?? (typeof assistant.name === "string" ? mixes?.[assistant.name] : undefined);
  if (!own) return model.outcomes;
  return Object.fromEntries(STATUSES.map((s) => [s, own[s] ?? 0])) as Record<FinalStatus, number>;
}
