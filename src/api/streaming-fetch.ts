import { ResponseTooLargeError, UnexpectedResponseError } from "./errors/index.ts";
import { JsonItemTooLarge, NotAJsonArray, readJsonArray } from "./json-array-stream.ts";
import { requestIdOf } from "./read-response.ts";
import type { Fetch, FetchResponse } from "./web-types.ts";
import { readWholeBody, signalOf } from "./whole-body-fetch.ts";

/** What reads a streamed JSON array: told when each attempt starts, then fed element by element. */
export interface JsonArrayReader<T> {
  /** An attempt starts: forget whatever an earlier, failed attempt read. */
  start(): void | Promise<void>;
  item(raw: unknown): void;
  /** After each chunk of the body; a promise holds the reading until it settles. */
  afterChunk?(): Promise<void> | undefined;
  /** The body of the successful attempt has been read whole. */
  finish(): T | Promise<T>;
}

export interface StreamingFetchOptions {
  fetch: Fetch;
  operation: string;
  /** For a streamed body, the cap of one element (the body itself is never held). */
  maxResponseBytes: number;
  onHeaders?: (response: FetchResponse) => void;
  reader: JsonArrayReader<unknown>;
  /** Scrubs what the service wrote before it goes into an error message. */
  scrub: (message: string) => string;
}

/**
 * ky's fetch for a streamed read: a success body is read inside the fetch, as a JSON array handed
 * to `reader` element by element, so ky's timeout, signal and retries cover it from the request to
 * the last byte, like `wholeBodyFetch`. Each attempt starts the reader afresh, and only once the
 * previous attempt's reading has stopped (ky's timeout rejects without waiting for it). A failure's
 * body is read whole, cut at its limit, as elsewhere.
 */
export function streamingFetch(o: StreamingFetchOptions): Fetch {
  let previous: Promise<unknown> = Promise.resolve();
  return async (input, init) => {
    const response = await o.fetch(input, init);
    o.onHeaders?.(response);
    const signal = signalOf(input, init);
    if (!response.ok) return readWholeBody(response, o, signal);
    await previous;
    const reading = readAttempt(response, signal);
    previous = reading.catch(() => undefined);
    await reading;
    const { status, statusText, headers } = response;
    return new Response(null, { status, statusText, headers });
  };

  async function readAttempt(response: Response, signal: AbortSignal | undefined): Promise<void> {
    const details = { operation: o.operation, status: response.status, requestId: requestIdOf(response) };
    await o.reader.start();
    try {
      await readJsonArray(response.body ?? new Blob([]).stream(), {
        onItem: (raw) => o.reader.item(raw),
        afterChunk: () => o.reader.afterChunk?.(),
        maxItemBytes: o.maxResponseBytes,
        signal,
      });
    } catch (error) {
      if (error instanceof NotAJsonArray)
        throw new UnexpectedResponseError(details, [{ path: "", message: o.scrub(error.message) }]);
      if (error instanceof JsonItemTooLarge)
        throw new ResponseTooLargeError({ ...details, maxResponseBytes: o.maxResponseBytes });
      throw error;
    }
  }
}
