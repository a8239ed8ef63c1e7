import type { Controls } from "../stores/controls.ts";
import type { CreateMemo } from "../stores/create-memo.ts";
import { type CampaignRequest, campaignKey } from "./lifecycle.ts";

/** A campaign asked for (a queued request, in any state), as the queue layer finds it. */
export interface CampaignRequestRef {
  /** The request's id (a campaign job id). */
  id: string;
  data: CampaignRequest;
  /** Takes the request out of its queue; may fail when a worker holds it (the cancel mark stops it). */
  remove(): Promise<void>;
}

/**
 * What `cancel` did for one campaign: `canceled` only when no campaign can exist (no create was
 * ever applied, and none will be sent); `may-exist` when a create was sent and its answer is
 * unknown (vcw keeps looking it up and tracks it if it does; if it doesn't, it is not created);
 * `exists` when it was created. The service has no operation to stop a campaign that exists.
 */
export type CancelOutcome = { request: string; name: string } & (
  | { kind: "canceled"; already: boolean }
  | { kind: "may-exist"; why: "answer-unknown" | "create-in-flight" }
  | { kind: "exists"; id: string }
);

/** What canceling reads and marks: each create's slot, and the operator's cancel mark. */
export interface CancelPort {
  memo: Pick<CreateMemo, "campaign">;
  controls: Pick<Controls, "cancel">;
}

export interface CancelOptions {
  /** How long to wait for a create in flight to finish before answering `may-exist`. */
  waitMs?: number;
}

/**
 * Cancels the campaigns of `requests`, each decided under its create's lock, so no create slips
 * between the decision and the answer. Free of any output: the CLI and the HTTP surface say it.
 */
export async function cancelCampaigns(
  d: CancelPort,
  requests: readonly CampaignRequestRef[],
  o: CancelOptions = {},
): Promise<CancelOutcome[]> {
  const out: CancelOutcome[] = [];
  for (const r of requests) out.push(await cancelOne(d, r, o.waitMs ?? 10_000));
  return out;
}

async function cancelOne(d: CancelPort, r: CampaignRequestRef, waitMs: number): Promise<CancelOutcome> {
  const key = campaignKey(r.data);
  const slot = d.memo.campaign(key);
  const head = { request: r.id, name: r.data.name };
  const mark = () => d.controls.cancel(key);
  const decide = async (): Promise<CancelOutcome> => {
    const state = await slot.state();
    if (state.kind === "exists") return { ...head, kind: "exists", id: state.id };
    // Not created if the lookup shows it was not applied; tracked if it was.
    const fresh = await mark();
    if (state.kind === "may-exist") return { ...head, kind: "may-exist", why: "answer-unknown" };
    await r.remove().catch(() => undefined);
    return { ...head, kind: "canceled", already: !fresh };
  };
  const timeout = AbortSignal.timeout(waitMs);
  try {
    const locked = await slot.locked({ ttlMs: 30_000, signal: timeout }, decide);
    if (locked.acquired) return locked.value;
  } catch (error) {
    if (!timeout.aborted) throw error;
  }
  // A create is being sent now: its campaign may exist; if it turns out not to, it is not sent again.
  await mark();
  return { ...head, kind: "may-exist", why: "create-in-flight" };
}
