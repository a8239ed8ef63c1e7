import { createHmac } from "node:crypto";
import type { Delivery, Sink } from "./delivery.ts";
import { postJson } from "./post-json.ts";

export const SIGNATURE_HEADER = "x-vcw-signature";

/** `sha256=<hex HMAC-SHA256 of the body>`, as receivers verify it. */
export const signature = (secret: string, body: string) =>
  `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

/** JSON POST with an Idempotency-Key per delivery and, given a secret, an HMAC signature. */
export function webhookSink(
  name: string,
  o: { url: string; secret: string | undefined; timeoutMs: number },
): Sink {
  return {
    async deliver(d: Delivery) {
      const body = JSON.stringify(d.payload);
      const headers: Record<string, string> = { "idempotency-key": d.idempotencyKey };
      if (o.secret) headers[SIGNATURE_HEADER] = signature(o.secret, body);
      await postJson(name, o.url, body, headers, o.timeoutMs);
    },
  };
}
