import type { Client } from "../../api/client.ts";
import type { CampaignCreate } from "../../api/schemas/campaign.ts";
import { type FailpointName, failpoint } from "../../lib/failpoint.ts";
import { nextOpening } from "../calling/calling-hours.ts";
import type { JobWindow } from "../calling/effective-rules.ts";
import { createOnce, idByName } from "../create-once.ts";
import { PermanentError } from "../errors.ts";
import { fillPattern } from "../name-pattern.ts";
import type { MemoSlot } from "../stores/create-memo.ts";

export type StartRule = "asap" | { at: string } | { window: JobWindow };

/**
 * When to call, as the ISO 8601 UTC time the service expects (docs/spec-gaps.md). A window in the
 * callee's zone (`timezone: callee`) opens in `zone`, the zone of the campaign's contacts.
 */
export function scheduledAtFor(start: StartRule, now: number, notBefore = now, zone?: string): string {
  const from = Math.max(now, notBefore);
  if (start === "asap") return new Date(from).toISOString();
  if ("at" in start) return new Date(Math.max(Date.parse(start.at), notBefore)).toISOString();
  const w = start.window;
  const timezone = w.timezone === "callee" ? (zone ?? "UTC") : w.timezone;
  const opening = nextOpening({ ...w, timezone }, from);
  if (opening === undefined)
    throw new PermanentError(
      "the calling window never opens",
      "name at least one day in campaign.start.window.days",
    );
  return new Date(opening).toISOString();
}

/** The pattern filled in; the file hash keeps names unique, so a name finds its campaign. */
export function campaignName(
  pattern: string,
  v: {
    job: string;
    file: string;
    sha256: string;
    now: number;
    attempt: number;
    zone?: string | undefined;
    variant?: string | undefined;
  },
) {
  const name = fillPattern(pattern, { job: v.job, file: v.file, sha256: v.sha256, at: v.now });
  const zone = v.zone ? ` [${v.zone}]` : "";
  const variant = v.variant ? ` (variant ${v.variant})` : "";
  return `${name} #${v.sha256.slice(0, 8)}${zone}${variant}${v.attempt > 0 ? ` follow-up ${v.attempt}` : ""}`;
}

export interface CampaignCreateOptions {
  /** The create's lock: longer than any create still in flight (see createOnce). */
  lockMs?: number;
  /** See createOnce: a lost create is sent again only after a lookup begun this long after its send. */
  settleMs?: number;
  /** False (canceled): a create not yet applied is never sent. */
  mayCreate?: () => Promise<boolean>;
  /** Look the name up before the first create too (see createOnce). */
  lookFirst?: boolean;
  /** The fault point right before the create is sent (lib/failpoint.ts: chaos tests pause there). */
  point?: FailpointName;
}

/**
 * Creates the campaign of `slot` (the create memo's `campaign(key)`) exactly once across retries,
 * crashes and workers (see createOnce):
 * its name is unique, so the name finds it when a create may have been applied. `mayCreate` false
 * (canceled) stops a create not yet applied (CreateCanceledError). Found by name: its start as listed.
 */
export async function createCampaignOnce(
  client: Client,
  slot: MemoSlot,
  body: CampaignCreate,
  o: CampaignCreateOptions = {},
): Promise<{ id: string; created: boolean; scheduledAt?: string }> {
  const name = body.campaigns_name;
  let foundStart: string | undefined;
  const result = await createOnce(slot, {
    lockMs: o.lockMs ?? 60_000,
    ...(o.settleMs === undefined ? {} : { settleMs: o.settleMs }),
    find: async () => {
      const named = (await client.campaigns.list()).filter((c) => c.campaigns_name === name);
      // The record's start: `started_at`, the time it starts or started (docs/spec-gaps.md).
      const start = named[0]?.started_at;
      foundStart = start && Number.isFinite(Date.parse(start)) ? start : undefined;
      return idByName(named, "campaign", name);
    },
    create: async (send) => {
      if (o.point) failpoint(o.point);
      return (await client.campaigns.create(body, send)).id;
    },
    ...(o.mayCreate ? { mayCreate: o.mayCreate } : {}),
    ...(o.lookFirst ? { lookFirst: true } : {}),
    what: `campaign "${name}"`,
    // The start as sent: an attempt that finds the campaign later registers this one, not its own.
    ...(body.scheduled_at ? { note: body.scheduled_at } : {}),
  });
  // Found by name: the start it was made with (its sent mark may be lost with Redis' last writes).
  return !result.created && foundStart ? { ...result, scheduledAt: foundStart } : result;
}

/** An assistant's id: given, or found by its name through assistants.list. */
export async function resolveAssistant(
  client: Client,
  ref: { id: string } | { name: string },
  field = "campaign.assistant",
): Promise<string> {
  if ("id" in ref) return ref.id;
  const matches = (await client.assistants.list()).filter((a) => a.name === ref.name);
  const id = idByName(matches, "assistant", ref.name, `give its id in the job's ${field}`);
  if (!id)
    throw new PermanentError(
      `no assistant is named "${ref.name}"`,
      `create it, or correct ${field} in the job (by name or by id)`,
    );
  return id;
}
