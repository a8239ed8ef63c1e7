import { SinkError } from "./sink-error.ts";

/**
 * POSTs a body; any non-2xx answer, timeout or network error is a SinkError naming the sink (never
 * the URL). Redirects are not followed: a signed summary goes to the address configured, nowhere else.
 */
export async function postJson(
  sink: string,
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const reason =
      (error as Error).name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : "connection failed";
    throw new SinkError(sink, reason);
  }
  await response.arrayBuffer().catch(() => undefined);
  if (response.ok) return;
  const { status } = response;
  const why =
    status >= 300 && status < 400
      ? ": redirects are not followed (configure the final URL)"
      : status === 410
        ? " (Gone): the receiver wants no more deliveries; not retried"
        : "";
  throw new SinkError(sink, `answered HTTP ${status}${why}`, status);
}
