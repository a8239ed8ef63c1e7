import { createHmac } from "node:crypto";

/**
 * Signing per the Standard Webhooks spec (standardwebhooks.com): `webhook-id`, `webhook-timestamp`
 * (seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. The timestamp
 * is signed, so a receiver can refuse a captured request replayed later.
 */
export const STANDARD_HEADERS = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature",
} as const;

const PREFIX = "whsec_";

/** The key bytes of a secret: base64 after `whsec_` (the spec's form), else the text itself. */
export function secretKey(secret: string): Buffer {
  return secret.startsWith(PREFIX) ? Buffer.from(secret.slice(PREFIX.length), "base64") : Buffer.from(secret);
}

/**
 * The secrets a variable holds: one, or several separated by spaces while a secret is rotated
 * (the new one first). Every one signs, so receivers holding either verify. Only white space
 * separates: any other character (a comma) belongs to the key.
 */
export const secretsOf = (value: string): string[] => value.split(/\s+/).filter(Boolean);

export const signStandard = (secret: string, id: string, timestamp: number, body: string) =>
  `v1,${createHmac("sha256", secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest("base64")}`;

/** The three headers of one attempt; the timestamp is the attempt's, the id the delivery's. */
export function standardHeaders(
  secrets: readonly string[],
  id: string,
  body: string,
  nowMs = Date.now(),
): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    [STANDARD_HEADERS.id]: id,
    [STANDARD_HEADERS.timestamp]: String(timestamp),
    [STANDARD_HEADERS.signature]: secrets.map((s) => signStandard(s, id, timestamp, body)).join(" "),
  };
}
