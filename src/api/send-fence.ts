import { randomUUID } from "node:crypto";
import { subscribe } from "node:diagnostics_channel";
import { failpoint } from "../lib/failpoint.ts";
import { currentHold } from "../lib/job-hold.ts";
import { OwnershipLostError } from "./errors/index.ts";
import type { Signal } from "./web-types.ts";

/**
 * Ownership of a create, checked at the moment it leaves: `beforeSend` runs after the rate gate and
 * after every retry sleep, right before the request is handed to fetch; it throws
 * OwnershipLostError when the sender no longer owns the create (nothing is sent), else renews the
 * ownership and stamps the send time, so the lease counts from the send.
 */
export interface SendFence {
  beforeSend(): Promise<void>;
  /** Keeps ownership alive while the request waits for the gate. */
  keepAlive?(): Promise<unknown>;
  keepAliveEveryMs?: number;
}

/**
 * A check that passed this long before the request is written to its socket is too old to trust
 * (the process was paused in between): the request is not written, and is checked again.
 */
export const FENCE_FRESH_MS = 1_000;

/** Names a fenced request to the write watch; the service ignores it. */
const SEND_HEADER = "x-vcw-send";
const fenced = new Map<string, { checkedAt: number; held: boolean }>();
let watching = false;

/**
 * Undici publishes `sendHeaders` synchronously right before it writes a request to its socket: the
 * last moment the request can still be kept from leaving. A fenced request whose check is too old
 * then (a pause between fetch and the write) has its socket destroyed, so nothing is written.
 */
function watchWrites(): void {
  if (watching) return;
  watching = true;
  subscribe("undici:client:sendHeaders", (message) => {
    const { headers, socket } = message as { headers?: string; socket?: { destroy(e?: Error): void } };
    const id = /\r\nx-vcw-send: ([\w-]+)\r\n/.exec(headers ?? "")?.[1];
    const entry = id === undefined ? undefined : fenced.get(id);
    if (!entry || performance.now() - entry.checkedAt < FENCE_FRESH_MS) return;
    entry.held = true;
    socket?.destroy(new Error("vcw: a fenced request was held past its check; not written"));
  });
}

/**
 * Sends with `send`, given the headers to send, after the fence: right before the request goes,
 * and again if the check went stale before the write. `signal` is the attempt's. The headers are a
 * plain object, a copy with the write watch's header: the body (a string) is never cloned.
 */
export async function fencedSend<T>(
  fence: SendFence | undefined,
  headers: Record<string, string>,
  signal: Signal,
  send: (headers: Record<string, string>) => Promise<T>,
): Promise<T> {
  if (!fence) return send(headers);
  watchWrites();
  for (;;) {
    failpoint("send.before-fence");
    const checkedAt = performance.now();
    // The queue job this send is for lost its lock: it is another worker's now.
    const hold = currentHold();
    if (hold && !(await hold.held())) throw new OwnershipLostError(hold.what, "stopped");
    await fence.beforeSend();
    failpoint("send.after-fence");
    // The attempt's timeout fired during the check: nothing may leave now.
    if (signal.aborted) throw new OwnershipLostError("the request", "stopped");
    if (performance.now() - checkedAt >= FENCE_FRESH_MS) continue;
    const id = randomUUID();
    const entry = { checkedAt, held: false };
    fenced.set(id, entry);
    try {
      return await send({ ...headers, [SEND_HEADER]: id });
    } catch (error) {
      if (!entry.held) throw error;
    } finally {
      fenced.delete(id);
    }
  }
}

/** Waits for `admitted`, renewing ownership every `keepAliveEveryMs` meanwhile. */
export async function keptAlive<T>(fence: SendFence | undefined, admitted: () => Promise<T>): Promise<T> {
  if (!fence?.keepAlive) return admitted();
  const timer = setInterval(
    () => void fence.keepAlive?.().catch(() => undefined),
    fence.keepAliveEveryMs ?? 1_000,
  );
  try {
    return await admitted();
  } finally {
    clearInterval(timer);
  }
}
