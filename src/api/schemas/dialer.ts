import { z } from "zod";
import {
  e164Phone,
  expected,
  isBlank,
  looseText,
  recordId,
  requiredText,
  withNormalizedId,
} from "./common.ts";

export const DIALER_TYPES = ["provider_a", "provider_b", "sip"] as const;
export const DialerType = z.enum(DIALER_TYPES, { error: expected(`one of ${DIALER_TYPES.join(", ")}`) });

/** Fields that hold credentials: never logged, never echoed, stripped from responses. */
export const DIALER_SECRET_FIELDS = ["auth_token", "sip_trunk_password"] as const;

const SIP_ONLY = ["sip_termination_uri", "sip_trunk_user_name", "sip_trunk_password"] as const;

const dialerFields = {
  dialer_type: DialerType,
  name: requiredText(),
  phone_number: e164Phone(),
  sid: requiredText(),
  auth_token: z.string({ error: expected("a string") }),
  sip_termination_uri: z.string({ error: expected("a string") }),
  sip_trunk_user_name: z.string({ error: expected("a string") }),
  sip_trunk_password: z.string({ error: expected("a string") }),
};

type DialerDraft = Partial<Record<keyof typeof dialerFields, string>>;

/** Rules between fields (spec 2.1); `complete` is true for a whole record, false for a partial update. */
function checkDialerRules(d: DialerDraft, ctx: z.RefinementCtx, complete: boolean): void {
  if (d.dialer_type === "sip") {
    if (isBlank(d.sip_termination_uri) && (complete || d.sip_termination_uri !== undefined)) {
      ctx.addIssue({
        code: "custom",
        path: ["sip_termination_uri"],
        message: "is required when dialer_type is sip",
      });
    }
  } else if (d.dialer_type !== undefined) {
    for (const field of SIP_ONLY) {
      if (!isBlank(d[field])) {
        ctx.addIssue({ code: "custom", path: [field], message: "is used only when dialer_type is sip" });
      }
    }
  }
  if (d.dialer_type !== "provider_b" && d.dialer_type !== undefined && complete && isBlank(d.auth_token)) {
    ctx.addIssue({
      code: "custom",
      path: ["auth_token"],
      message: `is required when dialer_type is ${d.dialer_type}`,
    });
  }
}

/** Create dialer request (spec 4.1). */
export const DialerCreate = z
  .strictObject({
    ...dialerFields,
    auth_token: dialerFields.auth_token.optional(),
    sip_termination_uri: dialerFields.sip_termination_uri.optional(),
    sip_trunk_user_name: dialerFields.sip_trunk_user_name.optional(),
    sip_trunk_password: dialerFields.sip_trunk_password.optional(),
  })
  .superRefine((d, ctx) => checkDialerRules(d, ctx, true))
  .meta({ id: "DialerCreate", description: "Dialer (spec 2.1) as sent to create." });

export type DialerCreate = z.input<typeof DialerCreate>;

/** Update dialer request: any subset of the dialer fields, at least one. */
export const DialerUpdate = z
  .strictObject(z.strictObject(dialerFields).partial().shape)
  .refine((d) => Object.keys(d).length > 0, "must change at least one field")
  .superRefine((d, ctx) => checkDialerRules(d, ctx, false))
  .meta({ id: "DialerUpdate", description: "Dialer fields to change." });

export type DialerUpdate = z.input<typeof DialerUpdate>;

/**
 * A dialer as returned. Credentials are dropped on reading so that they cannot travel further
 * (logs, job data, reports), whatever the service echoes.
 */
export const Dialer = z
  .looseObject({
    ...recordId,
    dialer_type: looseText(),
    name: looseText(),
    phone_number: looseText(),
    sid: looseText(),
    sip_termination_uri: looseText(),
    sip_trunk_user_name: looseText(),
  })
  .transform((d) => {
    const copy: Record<string, unknown> = { ...d };
    for (const field of DIALER_SECRET_FIELDS) delete copy[field];
    return withNormalizedId(copy as typeof d);
  })
  .meta({
    id: "Dialer",
    description: "Dialer as returned; credentials are not part of what the client keeps.",
  });

export type Dialer = z.output<typeof Dialer>;
