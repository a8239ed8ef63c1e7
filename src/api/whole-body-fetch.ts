import { ResponseTooLargeError } from "./errors/index.ts";
import type { Fetch, FetchInit, FetchInput, FetchResponse, Signal } from "./web-types.ts";

/**
 * Default cap of a response body: 512 MiB. An audience entry with a transcript is 1 to 2 kB, so
 * this holds a few hundred thousand calls. Beyond it the body could not be turned into one string
 * anyway: V8 caps a string at 2^29 - 24 characters, just under 512 MiB.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 512 * 1024 * 1024;

/** A failure's body is read only for its message, of which 500 characters are kept. */
const FAILURE_BODY_BYTES = 1024 * 1024;

/** Statuses whose Response may not carry a body. */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

export interface WholeBodyFetchOptions {
  fetch: Fetch;
  /** Named by the error when the body is over the cap. */
  operation: string;
  maxResponseBytes: number;
  /** Called as soon as the headers are in, before the body is read. */
  onHeaders?: (response: FetchResponse) => void;
}

/**
 * A fetch that resolves only once the whole body is in memory. Given to ky as its `fetch`, it
 * brings the body inside ky's timeout, signal and retries: ky's own timeout stops at the headers,
 * so a body sent one byte at a time would otherwise hang forever.
 *
 * A success body is counted while it streams; past `maxResponseBytes` reading stops and the call
 * fails with ResponseTooLargeError. A failure's body is cut at its limit instead: its status is
 * what counts.
 */
export function wholeBodyFetch(o: WholeBodyFetchOptions): Fetch {
  return async (input, init) => {
    const response = await o.fetch(input, init);
    o.onHeaders?.(response);
    return readWholeBody(response, o, signalOf(input, init));
  };
}

/** The signal a fetch was given, on its Request or in its init. */
export const signalOf = (input: FetchInput, init: FetchInit | undefined): Signal | undefined =>
  input instanceof Request ? input.signal : (init?.signal ?? undefined);

/** `response` again, its body read whole first (a success under the cap, a failure cut at its limit). */
export async function readWholeBody(
  response: FetchResponse,
  o: Pick<WholeBodyFetchOptions, "operation" | "maxResponseBytes">,
  signal: Signal | undefined,
): Promise<FetchResponse> {
  if (!response.body) return response;
  const tooLarge = () =>
    new ResponseTooLargeError({
      operation: o.operation,
      status: response.status,
      maxResponseBytes: o.maxResponseBytes,
    });
  const limit = response.ok ? o.maxResponseBytes : Math.min(o.maxResponseBytes, FAILURE_BODY_BYTES);
  if (response.ok && Number(response.headers.get("content-length")) > limit) {
    await response.body.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const body = await readUpTo(response.body, limit, signal);
  if (body.cut && response.ok) throw tooLarge();
  const { status, statusText, headers } = response;
  return new Response(NULL_BODY_STATUSES.has(status) ? null : streamOf(body.chunks), {
    status,
    statusText,
    headers,
  });
}

/** The chunks of a body up to `limit` bytes; `cut` when there was more (the rest is cancelled). */
async function readUpTo(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  signal: AbortSignal | undefined,
): Promise<{ chunks: Uint8Array[]; cut: boolean }> {
  const reader = stream.getReader();
  // Not every fetch stops its body on abort; cancelling the reader ends a pending read at once.
  const stop = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener("abort", stop, { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) return { chunks, cut: false };
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        return { chunks, cut: true };
      }
      chunks.push(value);
    }
  } finally {
    signal?.removeEventListener("abort", stop);
  }
}

/** The chunks as a body again, without copying them into one buffer. */
function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}
