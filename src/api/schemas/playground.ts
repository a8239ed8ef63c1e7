import { z } from "zod";
import {
  e164Phone,
  emailAddress,
  expected,
  looseText,
  recordId,
  requiredText,
  withNormalizedId,
} from "./common.ts";

/** Create playground call request (spec 4.6). Elements of phone_number: E.164 (docs/spec-gaps.md). */
export const PlaygroundCallCreate = z
  .strictObject({
    first_name: requiredText(),
    last_name: z.string({ error: expected("a string") }).optional(),
    email: emailAddress().optional(),
    phone_number: z
      .array(e164Phone(), { error: expected("an array of phone numbers") })
      .min(1, "must not be empty"),
    assistant_id: requiredText(),
    dialer_id: requiredText(),
  })
  .meta({ id: "PlaygroundCallCreate", description: "Playground call (spec 2.8) as sent." });

export type PlaygroundCallCreate = z.input<typeof PlaygroundCallCreate>;

export const PlaygroundCall = z
  .looseObject({
    ...recordId,
    first_name: looseText(),
    last_name: looseText(),
    email: looseText(),
    phone_number: z.union([z.array(z.union([z.string(), z.number()])), z.string(), z.null()]).optional(),
    assistant_id: looseText(),
    dialer_id: looseText(),
  })
  .transform(withNormalizedId)
  .meta({ id: "PlaygroundCall", description: "Playground call record (spec 2.8)." });

export type PlaygroundCall = z.output<typeof PlaygroundCall>;
