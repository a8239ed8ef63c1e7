import { ResponseTooLargeError, UnexpectedResponseError } from "./errors/index.ts";
import { JsonItemTooLarge, NotAJsonArray } from "./json-array-errors.ts";
import { readJsonArray } from "./json-array-stream.ts";
import { requestIdOf } from "./read-response.ts";
import type { FetchResponse, Signal } from "./web-types.ts";

/** What reads a streamed JSON array: told when each attempt starts, then fed element by element. */
export interface JsonArrayReader<T> {
  /** An attempt starts: forget whatever an earlier, failed attempt read. */
  start(): void | Promise<void>;
  item(raw: unknown): void;
  /** An element's bytes before it is parsed (a streamed body's): true when taken as it is, not parsed. */
  raw?(bytes: Uint8Array): boolean;
  /** After each chunk of the body; a promise holds the reading until it settles. */
  afterChunk?(): Promise<void> | undefined;
  /** The body of the successful attempt has been read whole. */
  finish(): T | Promise<T>;
}

export interface StreamedBodyOptions {
  operation: string;
  /** For a streamed body, the cap of one element (the body itself is never held). */
  maxResponseBytes: number;
  reader: JsonArrayReader<unknown>;
  /** Scrubs what the service wrote before it goes into an error message. */
  scrub: (message: string) => string;
}

/**
 * Reads a success body inside its attempt, as a JSON array handed to `reader` element by element,
 * so the attempt's timeout and signal cover it to the last byte. Each attempt starts the reader
 * afresh, and only once the previous attempt's reading has stopped (a timeout rejects the attempt
 * without waiting for it).
 */
export function streamedBody(
  o: StreamedBodyOptions,
): (response: FetchResponse, signal: Signal) => Promise<void> {
  let previous: Promise<unknown> = Promise.resolve();
  return async (response, signal) => {
    await previous;
    const reading = readAttempt(response, signal);
    previous = reading.catch(() => undefined);
    await reading;
  };

  async function readAttempt(response: FetchResponse, signal: Signal): Promise<void> {
    const details = { operation: o.operation, status: response.status, requestId: requestIdOf(response) };
    await o.reader.start();
    try {
      await readJsonArray(response.body ?? new Blob([]).stream(), {
        onItem: (raw) => o.reader.item(raw),
        ...(o.reader.raw ? { onRaw: (bytes: Uint8Array) => o.reader.raw!(bytes) } : {}),
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
