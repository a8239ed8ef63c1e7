import { z } from "zod";
import { normalizePhone } from "../../ingest/phone.ts";
import { maskPhone } from "../../lib/mask-phone.ts";

/** The queues whose failed jobs an operator may send back (imports: re-run the rejected file). */
export const RETRYABLE = ["imports", "campaigns", "polls", "followUps", "deliveries"] as const;
export type Retryable = (typeof RETRYABLE)[number];

const name = z.string().min(1).max(200);
/**
 * A number as an API client sends it (no page has a field for it): in +country format, read as
 * files are read (ingest/phone.ts) and kept as the E.164 vcw keys numbers by (`+44 020 7123 4567`
 * and `+4402071234567` are `+442071234567`); one that is no valid number is refused, named masked.
 */
const e164 = z.string().transform((raw, ctx) => {
  const result = raw.trim().startsWith("+") ? normalizePhone(raw.trim(), undefined) : undefined;
  if (result?.ok) return result.e164;
  ctx.addIssue({
    code: "custom",
    message: `must be a valid number in +country format (E.164), not "${maskPhone(raw)}"${result ? ` (${result.code})` : ""}`,
  });
  return z.NEVER;
});

/**
 * What an operator can ask, from the page or the CLI: one shape, checked here, run by `runAction`.
 * `retry-all` takes a filter: a sink (deliveries) or a job (the rest).
 */
export const ActionSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("pause"), job: name }),
  z.object({ kind: z.literal("resume"), job: name }),
  z.object({ kind: z.literal("cancel"), campaign: name }),
  z.object({ kind: z.literal("stop"), campaign: name }),
  z.object({ kind: z.literal("experiment-stop"), job: name, variant: name }),
  z.object({ kind: z.literal("experiment-promote"), job: name, variant: name }),
  z.object({ kind: z.literal("retry"), queue: z.enum(RETRYABLE), id: name }),
  /** Consent revoked by the operator (a callee asked by mail, by phone to an agent...): every job at once. */
  z.object({
    kind: z.literal("consent-revoke"),
    phones: z
      .array(e164)
      .min(1)
      .max(1_000)
      .transform((phones) => [...new Set(phones)]),
  }),
  z.object({
    kind: z.literal("retry-all"),
    queue: z.enum(RETRYABLE),
    sink: name.optional(),
    job: name.optional(),
  }),
]);
export type Action = z.infer<typeof ActionSchema>;

/** What became of an action: said in words for the page, the terminal and the log. */
export interface ActionResult {
  ok: boolean;
  /** How many things it changed. */
  count: number;
  message: string;
  /** `stop`: the campaigns whose stop a worker carries out (asked by this action or another): what to wait for. */
  stopping?: string[];
}

/** The action a request body names, or the reason it names none (field by field). */
export function parseAction(body: unknown): { action: Action } | { error: string } {
  const parsed = ActionSchema.safeParse(body);
  if (parsed.success) return { action: parsed.data };
  return {
    error: parsed.error.issues.map((i) => `${i.path.join(".") || "action"}: ${i.message}`).join("; "),
  };
}

/** The action in words, for the confirmation and the log (names as given; phones masked by the caller). */
export function describeAction(a: Action): string {
  switch (a.kind) {
    case "pause":
    case "resume":
      return `${a.kind} job ${a.job}`;
    case "cancel":
    case "stop":
      return `${a.kind} campaign ${a.campaign}`;
    case "experiment-stop":
    case "experiment-promote":
      return `${a.kind === "experiment-stop" ? "stop" : "promote"} variant ${a.variant} of job ${a.job}`;
    case "retry":
      return `retry ${a.queue} ${a.id}`;
    case "consent-revoke":
      return `revoke the consent of ${a.phones.join(", ")}`;
    case "retry-all":
      return `retry every failed ${a.queue}${a.sink ? ` of sink ${a.sink}` : ""}${a.job ? ` of job ${a.job}` : ""}`;
  }
}
