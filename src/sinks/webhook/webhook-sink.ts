import { createHmac } from "node:crypto";
import type { Delivery, Sink } from "../delivery.ts";
import { postJson } from "../post-json.ts";
import { secretsOf, standardHeaders } from "./standard-webhooks.ts";

/** The first signature vcw sent, kept for the receivers that verify it. */
export const SIGNATURE_HEADER = "x-vcw-signature";

/** `sha256=<hex HMAC-SHA256 of the body>` (GitHub's scheme; no timestamp), keyed by the secret's text. */
export const signature = (secret: string, body: string) =>
  `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

/**
 * JSON POST with an Idempotency-Key per delivery and, given a secret, two signatures: the
 * Standard Webhooks headers (every secret of a rotation) and `x-vcw-signature` (the first secret).
 * The delivery's key is also its `webhook-id`: the same for every attempt of one summary version.
 */
export function webhookSink(
  name: string,
  o: { url: string; secret: string | undefined; timeoutMs: number },
): Sink {
  const secrets = o.secret ? secretsOf(o.secret) : [];
  return {
    async deliver(d: Delivery) {
      const body = JSON.stringify(d.payload);
      const headers: Record<string, string> = { "idempotency-key": d.idempotencyKey };
      if (secrets.length > 0) {
        Object.assign(headers, standardHeaders(secrets, d.idempotencyKey, body));
        headers[SIGNATURE_HEADER] = signature(secrets[0]!, body);
      }
      await postJson(name, o.url, body, headers, o.timeoutMs);
    },
  };
}
