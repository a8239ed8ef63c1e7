/**
 * The system error code (`ECONNREFUSED`, `ECONNRESET`, `UND_ERR_SOCKET`, ...) behind a failed
 * fetch. Node's fetch throws `TypeError: fetch failed` with the code on a nested cause, sometimes
 * inside an AggregateError (one error per address tried).
 */
export function networkErrorCode(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || typeof error !== "object" || error === null) return undefined;
  const e = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (Array.isArray(e.errors)) {
    for (const inner of e.errors) {
      const code = networkErrorCode(inner, depth + 1);
      if (code) return code;
    }
  }
  if (typeof e.code === "string") return e.code;
  return networkErrorCode(e.cause, depth + 1);
}
