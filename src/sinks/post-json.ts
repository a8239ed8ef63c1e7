import { SinkError } from "./sink-error.ts";

/** POSTs a body; any non-2xx answer, timeout or network error is a SinkError naming the sink (never the URL). */
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
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const reason =
      (error as Error).name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : "connection failed";
    throw new SinkError(sink, reason);
  }
  await response.arrayBuffer().catch(() => undefined);
  if (!response.ok) throw new SinkError(sink, `answered HTTP ${response.status}`, response.status);
}
