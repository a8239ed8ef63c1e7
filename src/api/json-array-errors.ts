/** What reading a body as one JSON array can fail with (json-array-stream.ts). */

/** The body is not a readable JSON array; `message` says what it is instead. */
export class NotAJsonArray extends Error {
  override name = "NotAJsonArray";
}

/** One element took more than `maxItemBytes`. */
export class JsonItemTooLarge extends Error {
  override name = "JsonItemTooLarge";
}

/** A callback of the caller failed: its error is `cause`, never taken for a fault of the body. */
export class ItemCallbackError extends Error {
  override name = "ItemCallbackError";
}
