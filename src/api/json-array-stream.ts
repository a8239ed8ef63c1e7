import { maskPhonesIn } from "../lib/mask-phone.ts";
import { ItemCallbackError, NotAJsonArray } from "./json-array-errors.ts";
import { JsonArraySplitter } from "./json-array-split.ts";

export interface JsonArrayStreamOptions {
  /** Called with each element of the top-level array, in order, as soon as it is parsed. */
  onItem(item: unknown): void;
  /**
   * A streamed body's element as bytes, before it is parsed: true when the caller took it as it
   * is (one it has seen before), and then it is not parsed nor given to `onItem`. A small body,
   * read whole, is parsed whole and never given here.
   */
  onRaw?(bytes: Uint8Array): boolean;
  /** Called after each chunk; a promise makes reading wait for it (bounded work: Redis, batches). */
  afterChunk?(): Promise<void> | undefined;
  /** An element may take this many bytes of the body (exactly: the splitter counts its bytes). */
  maxItemBytes: number;
  signal?: AbortSignal | undefined;
}

const BOM = [0xef, 0xbb, 0xbf];
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Bodies up to this size are read whole and parsed with JSON.parse: for the few KB of a small
 * campaign's audience, setting up the streaming parser cost more than the parse (about 10% of a
 * poll's CPU at 3.8 KB).
 */
const SMALL_BODY_BYTES = 64 * 1024;

/**
 * Reads a body that is one JSON array, element by element: split as it comes (json-array-split.ts),
 * each element parsed with JSON.parse. Neither the body nor the array is ever held, only the
 * element being read (a small body is held and parsed whole). Failures of the connection (and
 * aborts) propagate as they are, so the transport retries them; a body that is not a JSON array is
 * a NotAJsonArray; what the callbacks throw is wrapped in ItemCallbackError.
 */
export async function readJsonArray(
  body: ReadableStream<Uint8Array>,
  o: JsonArrayStreamOptions,
): Promise<void> {
  const reader = body.getReader();
  // Not every fetch stops its body on abort; cancelling the reader ends a pending read at once.
  const stop = () => void reader.cancel(o.signal?.reason).catch(() => undefined);
  o.signal?.addEventListener("abort", stop, { once: true });
  const small = Math.min(SMALL_BODY_BYTES, o.maxItemBytes);
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let stream: ReturnType<typeof streamedArray> | undefined;
  let read = false;
  try {
    for (;;) {
      o.signal?.throwIfAborted();
      const { done, value } = await reader.read();
      o.signal?.throwIfAborted();
      if (done) {
        read = true;
        break;
      }
      if (!stream) {
        head.push(value);
        headBytes += value.length;
        if (headBytes <= small) continue;
        // Too large to hold: the chunks so far go to the streaming parser, and the rest as it comes.
        stream = streamedArray(o);
        for (const chunk of head.splice(0)) if (await stream.write(chunk)) break;
        if (stream.failed()) break;
        continue;
      }
      if (await stream.write(value)) break;
    }
    if (stream) stream.end();
    else await wholeArray(head, o);
  } finally {
    o.signal?.removeEventListener("abort", stop);
    // A body left unread would pin its keep-alive connection.
    if (!read) void reader.cancel().catch(() => undefined);
  }
}

/** A small body, read whole: the same checks and errors as the streaming parser's. */
async function wholeArray(chunks: Uint8Array[], o: JsonArrayStreamOptions): Promise<void> {
  const text = new TextDecoder().decode(Buffer.concat(chunks)).replace(/^[\uFEFF \t\n\r]+/, "");
  if (text === "") throw new NotAJsonArray("is empty, a JSON array was expected");
  if (!text.startsWith("[")) throw new NotAJsonArray("is not a JSON array");
  let items: unknown;
  try {
    items = JSON.parse(text);
  } catch (error) {
    throw notJson(error);
  }
  if (!Array.isArray(items)) throw new NotAJsonArray("is not a JSON array");
  try {
    for (const item of items) o.onItem(item);
  } catch (error) {
    wrapCallback(error);
  }
  const waiting = o.afterChunk?.();
  if (waiting) await waiting.catch(wrapCallback);
}

/** The splitter over a body's chunks; `write` is true when reading should stop (a callback failed). */
function streamedArray(o: JsonArrayStreamOptions) {
  // A byte-order mark before an element is kept, so JSON.parse refuses it as it would in the whole body.
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let callbackError: unknown;
  const splitter = new JsonArraySplitter(o.maxItemBytes, (bytes) => {
    if (callbackError !== undefined) return;
    let taken: boolean | undefined;
    try {
      taken = o.onRaw?.(bytes);
    } catch (error) {
      callbackError = error;
      return;
    }
    if (taken) return;
    let item: unknown;
    try {
      item = JSON.parse(decoder.decode(bytes));
    } catch (error) {
      throw notJson(error);
    }
    try {
      o.onItem(item);
    } catch (error) {
      callbackError = error;
    }
  });
  let started = false;
  return {
    failed: () => callbackError !== undefined,
    async write(value: Uint8Array): Promise<boolean> {
      let chunk = value;
      if (!started) {
        chunk = skipLeadingSpace(chunk);
        if (chunk.length === 0) return false;
        started = true;
      }
      try {
        splitter.push(chunk);
      } catch (error) {
        // A callback failed first: its error is the read's, not what the body holds after it.
        if (callbackError !== undefined) return true;
        throw error;
      }
      if (callbackError !== undefined) return true;
      const waiting = o.afterChunk?.();
      if (waiting) await waiting.catch(wrapCallback);
      return false;
    },
    end(): void {
      if (callbackError !== undefined) wrapCallback(callbackError);
      splitter.end();
    },
  };
}

/**
 * JSON.parse's complaint without the text it quotes (V8 quotes the start of what it read: a phone,
 * a name), its phones masked: it goes into an error a log may show.
 */
function notJson(error: unknown): NotAJsonArray {
  const said = (error as Error).message.replace(
    /"[\s\S]*"(?:\.\.\.)? is not valid JSON/,
    "the text is not valid JSON",
  );
  return new NotAJsonArray(`is not JSON (${maskPhonesIn(said)})`);
}

function wrapCallback(error: unknown): never {
  throw new ItemCallbackError("a callback of the JSON array reader failed", { cause: error });
}

/** The chunk without a leading byte-order mark and whitespace (only before the array starts). */
function skipLeadingSpace(chunk: Uint8Array): Uint8Array {
  let i = 0;
  if (chunk[0] === BOM[0] && chunk[1] === BOM[1] && chunk[2] === BOM[2]) i = 3;
  while (i < chunk.length && WHITESPACE.has(chunk[i]!)) i += 1;
  return i === 0 ? chunk : chunk.subarray(i);
}
