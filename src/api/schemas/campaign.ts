import { z } from "zod";
import {
  expected,
  isoDateTime,
  looseFlag,
  looseText,
  recordId,
  requiredText,
  withNormalizedId,
} from "./common.ts";

/** Create campaign request (spec 4.5). `contacts_id` is the segment whose contacts are called. */
export const CampaignCreate = z
  .strictObject({
    campaigns_name: requiredText(),
    assistant_id: requiredText(),
    contacts_id: requiredText(),
    dialer_id: requiredText(),
    scheduled_at: isoDateTime().optional(),
    is_automation: z.boolean({ error: expected("true or false") }).optional(),
  })
  .meta({ id: "CampaignCreate", description: "Create campaign request (spec 2.6)." });

export type CampaignCreate = z.input<typeof CampaignCreate>;

/** A campaign as returned (spec 2.6). */
export const Campaign = z
  .looseObject({
    ...recordId,
    campaigns_name: looseText(),
    assistant_name: looseText(),
    contact_name: looseText(),
    dialer_name: looseText(),
    dialer_type: looseText(),
    phone_number: looseText(),
    started_at: looseText(),
    is_started: looseFlag(),
    is_automation: looseFlag(),
  })
  .transform(withNormalizedId)
  .meta({ id: "Campaign", description: "Campaign record (spec 2.6)." });

export type Campaign = z.output<typeof Campaign>;

/** A campaign's per-contact call result (spec 2.7). Status values: docs/spec-gaps.md. */
export const AudienceEntry = z
  .looseObject({
    ...recordId,
    first_name: looseText(),
    last_name: looseText(),
    description: looseText(),
    phone: looseText(),
    status: looseText(),
    call_duration_in_sec: looseText(),
    call_sentiment: looseText(),
    calltranscribe: looseText(),
    is_call_transferred: looseFlag(),
    is_meeting_scheduled: looseFlag(),
    is_message_sent: looseFlag(),
    recording_url: looseText(),
    error: looseText(),
  })
  .transform(withNormalizedId)
  .meta({ id: "AudienceEntry", description: "Campaign audience entry (spec 2.7)." });

export type AudienceEntry = z.output<typeof AudienceEntry>;
