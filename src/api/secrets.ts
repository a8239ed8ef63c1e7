/**
 * Secret handling shared by every layer: which fields hold secrets, and scrubbing known secret
 * values out of any text that might reach a log line, an error message or a report.
 */

/** Field names whose values are secrets, wherever they appear. */
export const SECRET_FIELD_NAMES = [
  "apiKey",
  "api_key",
  "x-api-key",
  "auth_token",
  "sip_trunk_password",
  "secret",
  "password",
  "authorization",
] as const;

/** pino `redact` paths covering the secret field names at the top level and one or two levels down. */
export const LOG_REDACT_PATHS = SECRET_FIELD_NAMES.flatMap((name) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : `["${name}"]`;
  const join = (prefix: string) => (key.startsWith("[") ? `${prefix}${key}` : `${prefix}.${key}`);
  return [key.startsWith("[") ? key : name, join("*"), join("*.*")];
});

export const REDACTED = "[redacted]";

/** Replaces every occurrence of each secret value (at least 4 characters) in `text`. */
export function scrubSecrets(text: string, secrets: Iterable<string | undefined>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** Values of secret fields found in a request body (one level deep, as the spec's bodies are). */
export function secretValuesOf(body: unknown): string[] {
  if (typeof body !== "object" || body === null) return [];
  const names = new Set<string>(SECRET_FIELD_NAMES);
  return Object.entries(body)
    .filter(([k, v]) => names.has(k) && typeof v === "string")
    .map(([, v]) => v as string);
}
