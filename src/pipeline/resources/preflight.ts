import type { Logger } from "pino";
import type { Client } from "../../api/client.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import { maskPhone, maskPhonesIn } from "../../lib/mask-phone.ts";
import type { ResourceState } from "../stores/resource-state.ts";

/** A job's last test call, as the overview shows it (numbers masked). */
export interface PreflightRecord {
  job: string;
  /** UTC day it was for. */
  day: string;
  at: string;
  to: string[];
  assistantId: string;
  dialerId: string;
  ok: boolean;
  /** The playground call's id, or why it failed. */
  callId?: string;
  error?: string;
}

/**
 * The job's test call of the day (`preflight.to`), before its first campaign of that UTC day. The
 * day is taken before calling, so no retry, crash or second worker rings the operator twice; a
 * failed test call is logged and shown, and does not hold the campaign back.
 */
export async function preflightOnce(
  d: {
    client: Client;
    resources: Pick<ResourceState, "takeTestDay" | "notePreflight">;
    logger: Pick<Logger, "info" | "warn">;
  },
  def: JobDefinition,
  ids: { assistantId: string; dialerId: string },
  now: number,
): Promise<PreflightRecord | undefined> {
  if (!def.preflight) return undefined;
  const day = new Date(now).toISOString().slice(0, 10);
  if (!(await d.resources.takeTestDay(def.name, day, now))) return undefined;
  const record: PreflightRecord = {
    job: def.name,
    day,
    at: new Date(now).toISOString(),
    to: def.preflight.to.map(maskPhone),
    ...ids,
    ok: true,
  };
  try {
    const call = await d.client.playground.call({
      first_name: "vcw preflight",
      last_name: def.name,
      phone_number: def.preflight.to,
      assistant_id: ids.assistantId,
      dialer_id: ids.dialerId,
    });
    if (call.id) record.callId = call.id;
    d.logger.info({ job: def.name, to: record.to, assistant: ids.assistantId }, "preflight test call placed");
  } catch (error) {
    record.ok = false;
    record.error = maskPhonesIn(error instanceof Error ? error.message : String(error));
    d.logger.warn({ job: def.name, to: record.to, err: record.error }, "preflight test call failed");
  }
  await d.resources.notePreflight(def.name, record);
  return record;
}

/** The last test call of each job, for the overview. */
export async function readPreflights(
  resources: Pick<ResourceState, "preflights">,
): Promise<PreflightRecord[]> {
  return (await resources.preflights())
    .map((v) => JSON.parse(v) as PreflightRecord)
    .sort((a, b) => a.job.localeCompare(b.job));
}
