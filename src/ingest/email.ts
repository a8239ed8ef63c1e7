import { z } from "zod";

// The same rule as the client's request schema, so a row valid here is valid there.
const EMAIL = z.regexes.email;

export type EmailResult = { ok: true; email: string } | { ok: false; message: string };

/** An e-mail address, lower-cased, or why not. Pure. */
export function normalizeEmail(raw: string): EmailResult {
  const email = raw.toLowerCase();
  return EMAIL.test(email)
    ? { ok: true, email }
    : { ok: false, message: `"${raw}" is not an e-mail address` };
}
