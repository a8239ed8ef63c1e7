import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Redis } from "ioredis";
import type { Client } from "../api/client.ts";
import { AmbiguousWriteError, VcwError } from "../api/errors/index.ts";
import type { CampaignCreate } from "../api/schemas/campaign.ts";
import { type CallingWindow, nextOpening } from "./calling-window.ts";
import { fillPattern } from "./name-pattern.ts";

export type StartRule = "asap" | { at: string } | { window: CallingWindow };

/** When to call, as the ISO 8601 UTC time the service expects (docs/spec-gaps.md). */
export function scheduledAtFor(start: StartRule, now: number, notBefore = now): string {
  const from = Math.max(now, notBefore);
  if (start === "asap") return new Date(from).toISOString();
  if ("at" in start) return new Date(Math.max(Date.parse(start.at), notBefore)).toISOString();
  const opening = nextOpening(start.window, from);
  if (opening === undefined) throw new VcwError("the calling window never opens: it names no day");
  return new Date(opening).toISOString();
}

/** The pattern filled in; the file hash keeps names unique, so a name finds its campaign. */
export function campaignName(
  pattern: string,
  v: { job: string; file: string; sha256: string; now: number; attempt: number },
) {
  const name = fillPattern(pattern, { job: v.job, file: v.file, sha256: v.sha256, at: v.now });
  return `${name} #${v.sha256.slice(0, 8)}${v.attempt > 0 ? ` follow-up ${v.attempt}` : ""}`;
}

const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * Creates the campaign of `key` exactly once across retries, crashes and workers: remembered in
 * Redis, created under a lock, looked up by its unique name before creating and after an
 * ambiguous create or an answer without id.
 */
export async function createCampaignOnce(
  client: Client,
  redis: Redis,
  key: string,
  body: CampaignCreate,
  o: { prefix?: string; lockMs?: number } = {},
): Promise<{ id: string; created: boolean }> {
  const prefix = o.prefix ?? "vcw";
  const memo = `${prefix}:campaign-for:${key}`;
  const remembered = await redis.get(memo);
  if (remembered) return { id: remembered, created: false };
  const lock = `${memo}:lock`;
  const token = randomBytes(8).toString("hex");
  while ((await redis.set(lock, token, "PX", o.lockMs ?? 60_000, "NX")) !== "OK") await sleep(50);
  try {
    const again = await redis.get(memo);
    if (again) return { id: again, created: false };
    let id = await findByName(client, body.campaigns_name);
    let created = false;
    if (!id) {
      try {
        id = (await client.campaigns.create(body)).id;
      } catch (error) {
        if (!(error instanceof AmbiguousWriteError)) throw error;
      }
      id ??= await findByName(client, body.campaigns_name);
      if (!id) throw new VcwError(`campaign "${body.campaigns_name}" could not be created or found`);
      created = true;
    }
    await redis.set(memo, id);
    return { id, created };
  } finally {
    await redis.eval(UNLOCK, 1, lock, token);
  }
}

async function findByName(client: Client, name: string): Promise<string | undefined> {
  const matches = (await client.campaigns.list()).filter((c) => c.campaigns_name === name);
  if (matches.length > 1) throw new VcwError(`${matches.length} campaigns are named "${name}"`);
  if (matches.length === 1 && !matches[0]!.id) {
    throw new VcwError(`the service lists campaign "${name}" without an id`);
  }
  return matches[0]?.id;
}

/** An assistant's id: given, or found by its name through assistants.list. */
export async function resolveAssistant(
  client: Client,
  ref: { id: string } | { name: string },
): Promise<string> {
  if ("id" in ref) return ref.id;
  const matches = (await client.assistants.list()).filter((a) => a.name === ref.name);
  if (matches.length !== 1 || !matches[0]!.id) {
    throw new VcwError(
      matches.length === 0
        ? `no assistant is named "${ref.name}"`
        : `${matches.length} assistants are named "${ref.name}"; give its id`,
    );
  }
  return matches[0]!.id;
}
