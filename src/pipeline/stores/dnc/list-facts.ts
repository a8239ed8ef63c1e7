import { z } from "zod";

/** A source's name: `ftc`, `state-fl`, `tps`... (it is part of Redis keys and of every report). */
export const SOURCE_NAME = /^[a-z0-9][a-z0-9._-]{0,39}$/;

/** One do-not-call list in force: a source's last import. */
export const DoNotCallList = z.object({
  source: z.string(),
  /** The loaded version in force (a re-import loads another, then switches). */
  version: z.string(),
  numbers: z.number(),
  /** Keys its numbers are stored in. */
  blocks: z.number(),
  importedAt: z.number(),
  /** When the list is due for a fresh extract (US rules: 31 days); absent: never. */
  expiresAt: z.number().optional(),
  /** The extract's file name (no folder). */
  file: z.string(),
  /** Lines of the extract that were no phone number (left out). */
  invalid: z.number(),
  /** SHA-256 of its numbers as loaded (E.164, a line each, in the extract's order): what the audit trail names. */
  sha256: z.string().optional(),
  /** How its numbers are stored: `tree` (tree-place.ts), or blocks of 10,000 (lists imported before it). */
  layout: z.enum(["blocks", "tree"]).optional(),
});
export type DoNotCallList = z.infer<typeof DoNotCallList>;

/** An expired list still suppresses (a stale do-not-call list is still one); it is warned about. */
export const isExpired = (list: DoNotCallList, now: number) =>
  list.expiresAt !== undefined && list.expiresAt <= now;

/** "3 d", "5 h": how long ago, or until. Pure. */
export function ageText(ms: number): string {
  const abs = Math.abs(ms);
  if (abs >= 86_400_000) return `${Math.floor(abs / 86_400_000)} d`;
  if (abs >= 3_600_000) return `${Math.floor(abs / 3_600_000)} h`;
  return `${Math.floor(abs / 60_000)} min`;
}

/** What is said of an expired list, wherever it is said (import, status, jobs check). */
export const expiredText = (list: DoNotCallList, now: number) =>
  `do-not-call list "${list.source}" expired ${ageText(now - list.expiresAt!)} ago (imported from ${list.file} ${ageText(now - list.importedAt)} ago): it still suppresses its numbers; import a fresh extract (vcw suppress import FILE --source ${list.source})`;

/** Parses `31d`, `12h`, `never`: milliseconds, or undefined for never. */
export function parseExpiry(text: string): number | undefined {
  if (text === "never") return undefined;
  const m = /^(\d+)\s*([dh])$/.exec(text.trim());
  if (!m || Number(m[1]) === 0)
    throw new Error(`"${text}" is not an expiry: use a number of days (31d), hours (12h) or never`);
  return Number(m[1]) * (m[2] === "d" ? 86_400_000 : 3_600_000);
}
