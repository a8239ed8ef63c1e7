import { readFileSync } from "node:fs";
import { z } from "zod";
import type { CallModel, FinalStatus } from "./call-plan.ts";

const STATUSES = ["completed", "no-answer", "busy", "voicemail", "failed", "opted-out"] as const;
/** Every status a simulated call reports, on its way and at its end. */
const ALL_STATUSES = ["queued", "ringing", "in-progress", ...STATUSES] as const;

/** Refuses, naming it, a key that is none of `statuses`. */
const keysAmong =
  (statuses: readonly string[]) =>
  (value: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    for (const key of Object.keys(value))
      if (!statuses.includes(key))
        ctx.addIssue({
          code: "custom",
          message: `is not a status: one of ${statuses.join(", ")}`,
          path: [key],
        });
  };

/** One mix: final status -> weight; a status left out never happens. */
const Mix = z
  .record(z.string(), z.number().min(0, "must be a weight of 0 or more"))
  .superRefine(keysAmong(STATUSES))
  .refine((mix) => Object.values(mix).some((w) => w > 0), "must give at least one status a weight above 0");

/** Assistant id or name -> its own mix (`--outcomes-by-assistant`). */
export const OutcomeMixes = z.record(z.string().min(1), Mix);
export type OutcomeMixes = z.output<typeof OutcomeMixes>;

/**
 * The service's own word for a status (`--status-names`): the spec lists no statuses (2.7), so a real
 * service may say `line-busy` where the simulator says `busy`, or `constructor` for all anyone knows.
 */
export const StatusNames = z
  .record(z.string(), z.string().min(1, "must not be empty"))
  .superRefine(keysAmong(ALL_STATUSES));
export type StatusNames = z.output<typeof StatusNames>;

/** A flag's JSON, or `@FILE` holding it, as `schema` reads it; a bad value names where it is wrong. */
function parseJsonFlag<T>(value: string, schema: z.ZodType<T>): T {
  const fromFile = value.startsWith("@");
  let json: unknown;
  try {
    json = JSON.parse(fromFile ? readFileSync(value.slice(1), "utf8") : value);
  } catch (error) {
    throw new Error(`${fromFile ? value.slice(1) : "the value"} is not JSON: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${issue.path.join(".") || "the value"}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * `--outcomes-by-assistant`: JSON, or `@FILE` holding it, such as
 * `{"Ava":{"completed":80,"no-answer":20}}`. A bad value names the assistant and the status.
 */
export const parseOutcomeMixes = (value: string): OutcomeMixes => parseJsonFlag(value, OutcomeMixes);

/** `--status-names`: JSON, or `@FILE` holding it, such as `{"busy":"line-busy"}`. */
export const parseStatusNames = (value: string): StatusNames => parseJsonFlag(value, StatusNames);

/** The status an audience entry reports: the service's own word for it, if it has one. */
export const reportedStatus = (
  names: Readonly<Partial<Record<string, string>>> | undefined,
  status: string,
): string => (names && Object.hasOwn(names, status) ? names[status] : undefined) ?? status;

/**
 * The outcome weights of calls made by `assistant` through `dialer`: the dialer's own mix (by id,
 * then number), else the assistant's (by id, then name), else the model's.
 */
export function outcomesFor(
  model: CallModel,
  assistant: { id: string; name?: unknown },
  dialer?: { id: string; phone?: unknown },
): CallModel["outcomes"] {
  const mixes = model.outcomesByAssistant;
  const byDialer = model.outcomesByDialer;
  const own =
    (dialer
      ? (byDialer?.[dialer.id] ?? (typeof dialer.phone === "string" ? byDialer?.[dialer.phone] : undefined))
      : undefined) ??
    mixes?.[assistant.id] ??
    (typeof assistant.name === "string" ? mixes?.[assistant.name] : undefined);
  if (!own) return model.outcomes;
  return Object.fromEntries(STATUSES.map((s) => [s, own[s] ?? 0])) as Record<FinalStatus, number>;
}
