import { ResponseTooLargeError } from "./errors/index.ts";
import type { FetchResponse, Signal } from "./web-types.ts";

/**
 * Default cap of a response body: 512 MiB. An audience entry with a transcript is 1 to 2 kB, so
 * this holds a few hundred thousand calls. Beyond it the body could not be turned into one string
 * anyway: V8 caps a string at 2^29 - 24 characters, just under 512 MiB.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 512 * 1024 * 1024;

/** A failure's body is read only for its message, of which 500 characters are kept. */
export const FAILURE_BODY_BYTES = 1024 * 1024;

export interface WholeBodyOptions {
  /** Named by the error when the body is over the cap. */
  operation: string;
  maxResponseBytes: number;
}

/**
 * A response's body as text, read whole inside the attempt (so its timeout and signal cover the
 * last byte). A success body is counted while it streams; past `maxResponseBytes` reading stops
 * and the call fails with ResponseTooLargeError. A failure's body is cut at its limit instead: its
 * status is what counts.
 */
export async function readWholeText(
  response: FetchResponse,
  o: WholeBodyOptions,
  signal: Signal | undefined,
): Promise<string> {
  if (!response.body) return "";
  const tooLarge = () =>
    new ResponseTooLargeError({
      operation: o.operation,
      status: response.status,
      maxResponseBytes: o.maxResponseBytes,
    });
  const limit = response.ok ? o.maxResponseBytes : Math.min(o.maxResponseBytes, FAILURE_BODY_BYTES);
  const declared = response.headers.get("content-length");
  if (declared !== null && Number(declared) > limit && response.ok) {
    await response.body.cancel().catch(() => undefined);
    throw tooLarge();
  }
  // A declared length within the cap is held to by the HTTP parser: no need to count it again.
  if (declared !== null && Number(declared) <= limit) return response.text();
  const body = await readUpTo(response.body, limit, signal);
  if (body.cut && response.ok) throw tooLarge();
  return Buffer.concat(body.chunks).toString("utf8");
}

/** The chunks of a body up to `limit` bytes; `cut` when there was more (the rest is cancelled). */
async function readUpTo(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  signal: Signal | undefined,
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
