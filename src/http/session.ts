import { createHmac, randomBytes } from "node:crypto";

/**
 * A dashboard session: a random id and when it began, in a cookie signed (by @fastify/cookie)
 * with a key derived from the token. It ends after `hours`, at sign-out, or when the token changes.
 */
export interface Session {
  id: string;
  issuedAt: number;
}

/** The signing key: derived from the token, so the token itself never sits in a cookie jar. */
export const sessionSecret = (token: string) =>
  createHmac("sha256", token).update("vcw dashboard session v2").digest("base64url");

export const newSession = (now = Date.now()): Session => ({
  id: randomBytes(12).toString("base64url"),
  issuedAt: now,
});

export const sessionValue = (s: Session) => `${s.id}.${s.issuedAt}`;

/** The session an (already unsigned) cookie value names, if it is well formed and not expired. */
export function parseSession(value: string, hours: number, now = Date.now()): Session | undefined {
  const m = /^([A-Za-z0-9_-]{16})\.(\d{13})$/.exec(value);
  if (!m) return undefined;
  const issuedAt = Number(m[2]);
  if (issuedAt > now + 60_000 || now - issuedAt >= hours * 3_600_000) return undefined;
  return { id: m[1]!, issuedAt };
}

/** Who acted, for the logs: a session's short id or "token"; never the token or the cookie. */
export const sessionName = (s: Session) => `session ${s.id.slice(0, 8)}`;
