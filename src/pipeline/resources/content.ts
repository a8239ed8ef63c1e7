import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";

/**
 * JSON with object keys sorted, so equal content hashes equally whatever the order of its fields.
 * Hand-written: ten lines, where a library would be a dependency for one call.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** A resource's content hash: 12 hex digits of the SHA-256 of its canonical spec. */
export const contentHash = (kind: string, spec: unknown) =>
  createHash("sha256").update(canonicalJson({ kind, spec })).digest("hex").slice(0, 12);

/** The name of the record of one version: `support-bot@1a2b3c4d5e6f`. */
export const versionName = (name: string, hash: string) => `${name}@${hash}`;

/** Whether `name` is a record name a managed resource could carry: the name itself or a version of it. */
export const carriesName = (record: string | undefined, name: string) =>
  record === name || (record?.startsWith(`${name}@`) ?? false);

/**
 * Whether `live` holds every field that was sent as it was sent (the service fills in others).
 * Objects are compared field by field the same way; arrays and values exactly.
 */
export function holdsSent(sent: unknown, live: unknown): boolean {
  if (sent && typeof sent === "object" && !Array.isArray(sent)) {
    if (!live || typeof live !== "object") return false;
    return Object.entries(sent as Record<string, unknown>).every(
      ([k, v]) => v === undefined || holdsSent(v, (live as Record<string, unknown>)[k]),
    );
  }
  if (Array.isArray(sent) && Array.isArray(live))
    return sent.length === live.length && sent.every((v, i) => holdsSent(v, live[i]));
  return isDeepStrictEqual(sent, live);
}
