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

const contactFields = {
  first_name: requiredText(),
  last_name: requiredText(),
  phone: e164Phone(),
  email: emailAddress(),
  description: z.string({ error: expected("a string") }),
  job_title: z.string({ error: expected("a string") }),
  // Allowed values not shown by the spec (docs/spec-gaps.md): any text.
  lifecycle_stage: z.string({ error: expected("a string") }),
  lead_status: z.string({ error: expected("a string") }),
};

/** Create contact request (spec 4.4): a phone is required, the rest optional. */
export const ContactCreate = z
  .strictObject({ ...z.strictObject(contactFields).partial().shape, phone: contactFields.phone })
  .meta({ id: "ContactCreate", description: "Segment contact (spec 2.5) as sent to create." });

export type ContactCreate = z.input<typeof ContactCreate>;

/** Update contact request: any subset of the contact fields, at least one. */
export const ContactUpdate = z
  .strictObject(z.strictObject(contactFields).partial().shape)
  .refine((c) => Object.keys(c).length > 0, "must change at least one field")
  .meta({ id: "ContactUpdate", description: "Segment contact fields to change." });

export type ContactUpdate = z.input<typeof ContactUpdate>;

/** A contact as listed (spec 4.4): the one record the spec gives an `id`. */
export const Contact = z
  .looseObject({
    ...recordId,
    first_name: looseText(),
    last_name: looseText(),
    phone: looseText(),
    email: looseText(),
    description: looseText(),
    sync_by: looseText(),
  })
  .transform(withNormalizedId)
  .meta({ id: "Contact", description: "Segment contact as listed (spec 2.5)." });

export type Contact = z.output<typeof Contact>;
