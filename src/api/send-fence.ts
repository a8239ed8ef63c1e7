import { failpoint } from "../lib/failpoint.ts";
import { OwnershipLostError } from "./errors/index.ts";

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
 * A check that passed this long before the request is handed to fetch is too old to trust (the
 * process was paused between them): it is checked again.
 */
export const FENCE_FRESH_MS = 1_000;

/** `fetch` that runs the fence right before the request goes, and again if the fence went stale. */
export function fencedFetch(inner: typeof fetch, fence: SendFence | undefined): typeof fetch {
  if (!fence) return inner;
  return async (input, init) => {
    for (;;) {
      failpoint("send.before-fence");
      const checked = performance.now();
      await fence.beforeSend();
      failpoint("send.after-fence");
      const signal = input instanceof Request ? input.signal : init?.signal;
      // ky's timeout fired during the check: nothing may leave now.
      if (signal?.aborted) throw new OwnershipLostError("the request", "stopped");
      if (performance.now() - checked < FENCE_FRESH_MS) return inner(input, init);
    }
  };
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
