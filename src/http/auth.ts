import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import cookie from "@fastify/cookie";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import { counted } from "../lib/plural.ts";
import type { TokenWay } from "../lib/redis-keys.ts";
import type { RevokedSessions } from "../pipeline/stores/revoked-sessions.ts";
import type { SignInThrottle, ThrottleWait } from "../pipeline/stores/sign-in-throttle.ts";
import { FAVICON_LINK } from "./favicon.ts";
import {
  newSession,
  parseSession,
  type Session,
  sessionName,
  sessionSecret,
  sessionValue,
} from "./session.ts";

/** Paths reached without credentials: the probes (they tell nothing but "alive" and "ready"), signing in and out. */
export const OPEN_PATHS = new Set(["/livez", "/readyz", "/login", "/logout", "/favicon.ico"]);
export const TOKEN_COOKIE = "vcw_token";

declare module "fastify" {
  interface FastifyRequest {
    /** Who is asking, for the logs: "token" (a bearer), "session ab12cd34", "local" (no token set), or "". */
    operator: string;
  }
}

export interface AuthOptions {
  token: string | undefined;
  sessionHours: number;
  revoked: RevokedSessions;
  /** Whether a cookie set for this request gets `Secure` (https here, at the proxy, or in VCW_PUBLIC_URL). */
  secure: (req: FastifyRequest) => boolean;
  logger: Logger;
  /** Attempts to present the token (sign-in or bearer), counted per client across daemons. */
  throttle: SignInThrottle;
}

const digest = (s: string) => createHash("sha256").update(s).digest();
/** Compared as digests: equal lengths, constant time, nothing learnt from how long a check takes. */
const same = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/** The session a request's cookie holds, if its signature, age and standing are good. */
async function sessionOf(req: FastifyRequest, o: AuthOptions): Promise<Session | undefined> {
  const raw = req.cookies[TOKEN_COOKIE];
  if (!raw) return undefined;
  const unsigned = req.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return undefined;
  const s = parseSession(unsigned.value, o.sessionHours);
  return s && !(await o.revoked.has(s.id)) ? s : undefined;
}

/** A refused attempt: how long is left of the wait and why, in the header and in words; logged. */
function throttled(
  req: FastifyRequest,
  reply: FastifyReply,
  way: TokenWay,
  wait: ThrottleWait,
  logger: Logger,
) {
  const seconds = Math.ceil(wait.ms / 1000);
  const busy = wait.why === "busy";
  logger.warn(
    { client: req.ip, path: req.url.split("?")[0], way, waitSeconds: seconds },
    busy
      ? "dashboard sign-in refused for a moment: Redis did not count the attempt within half a second"
      : "dashboard sign-in throttled: too many attempts from this client",
  );
  return reply
    .code(429)
    .header("retry-after", String(seconds))
    .send({ error: throttledMessage(way, wait) });
}

/** What a refused attempt is told: why, and in how many seconds (rounded up) to try again. */
export function throttledMessage(way: TokenWay, wait: ThrottleWait): string {
  const again = `try again in ${counted(Math.ceil(wait.ms / 1000), "second")}`;
  if (wait.why === "busy") return `the attempt could not be counted (the service is busy): ${again}`;
  return `too many ${way === "bearer" ? "wrong bearer tokens" : "sign-in attempts"} from this address: ${again}`;
}

/**
 * Who a request comes from, or "" when it carries no valid credential. A bearer token is an
 * attempt like a sign-in, counted apart from them: refused while the client waits, a wrong one logged.
 */
async function identify(
  req: FastifyRequest,
  reply: FastifyReply,
  o: AuthOptions & { token: string },
  open: boolean,
): Promise<string | "refused"> {
  const auth = req.headers.authorization;
  if (auth?.startsWith("Bearer ") && !open) {
    const wait = await o.throttle.bearer(req.ip);
    if (wait.ms > 0) {
      await throttled(req, reply, "bearer", wait, o.logger);
      return "refused";
    }
    if (same(auth.slice(7).trim(), o.token)) return "token";
    await o.throttle.wrongBearer(req.ip);
    o.logger.warn({ client: req.ip, path: req.url.split("?")[0] }, "request refused: wrong bearer token");
    return "";
  }
  const s = await sessionOf(req, o);
  return s ? sessionName(s) : "";
}

/**
 * With a token, every path but the open ones needs it: `Authorization: Bearer <token>` (Prometheus,
 * curl), or the session cookie `/login` sets (a browser: signed, HttpOnly, SameSite=Strict, ends
 * after VCW_HTTP_SESSION_HOURS or at sign-out). Every presentation of the token (a sign-in, a bearer
 * header) is throttled per client address and per way across daemons (pipeline/stores/sign-in-throttle.ts) and a wrong one logged.
 * Without a token the server listens on loopback only (server.ts) and nothing can be changed.
 */
export async function installAuth(app: FastifyInstance, o: AuthOptions): Promise<void> {
  await app.register(cookie, { secret: o.token ? sessionSecret(o.token) : randomBytes(32).toString("hex") });
  app.decorateRequest("operator", "");
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 4096 },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.get("/login", async (_req, reply) => loginPage(reply, o.token !== undefined, false));
  app.post("/login", (req, reply) => signIn(req, reply, o));
  app.post("/logout", (req, reply) => signOut(req, reply, o));
  const { token } = o;
  if (!token) {
    app.addHook("onRequest", async (req) => {
      req.operator = "local";
    });
    return;
  }
  app.addHook("onRequest", async (req, reply) => {
    const path = req.url.split("?")[0]!;
    const who = await identify(req, reply, { ...o, token }, OPEN_PATHS.has(path));
    if (who === "refused") return reply;
    req.operator = who;
    if (req.operator || OPEN_PATHS.has(path)) return;
    if (req.method === "GET" && (path === "/" || req.headers.accept?.includes("text/html")))
      return reply.redirect("/login", 303);
    return reply
      .code(401)
      .header("www-authenticate", 'Bearer realm="vcw"')
      .send({ error: "a token is needed: Authorization: Bearer <VCW_HTTP_TOKEN>, or sign in at /login" });
  });
}

async function signIn(req: FastifyRequest, reply: FastifyReply, o: AuthOptions) {
  if (!o.token) return reply.redirect("/", 303);
  const wait = await o.throttle.signIn(req.ip);
  if (wait.ms > 0) return throttled(req, reply, "sign-in", wait, o.logger);
  const given = String((req.body as Record<string, unknown> | undefined)?.token ?? "");
  const right = same(given, o.token);
  await o.throttle.signedIn(req.ip, right);
  if (!right) {
    o.logger.warn({ client: req.ip }, "dashboard sign-in refused: wrong token");
    return loginPage(reply.code(401), true, true);
  }
  const s = newSession();
  o.logger.info({ client: req.ip, who: sessionName(s) }, "dashboard sign-in");
  return reply
    .setCookie(TOKEN_COOKIE, sessionValue(s), {
      path: "/",
      httpOnly: true,
      sameSite: "strict",
      secure: o.secure(req),
      signed: true,
      maxAge: o.sessionHours * 3600,
    })
    .redirect("/", 303);
}

/** Ends the session here and in every other daemon (until it would have expired), and forgets the cookie. */
async function signOut(req: FastifyRequest, reply: FastifyReply, o: AuthOptions) {
  const s = o.token ? await sessionOf(req, o) : undefined;
  if (s) {
    await o.revoked.add(s.id, s.issuedAt + o.sessionHours * 3_600_000);
    o.logger.info({ client: req.ip, who: sessionName(s) }, "dashboard sign-out");
  }
  return reply.clearCookie(TOKEN_COOKIE, { path: "/" }).redirect("/login", 303);
}

function loginPage(reply: FastifyReply, needed: boolean, wrong: boolean) {
  const body = needed
    ? `<form method="post" action="/login"><label>Token (VCW_HTTP_TOKEN) <input name="token" type="password" autocomplete="current-password" autofocus></label> <button>Sign in</button></form>${wrong ? "<p role=alert>That is not the token.</p>" : ""}`
    : `<p>No token is set: <a href="/">open the dashboard</a>.</p>`;
  return reply
    .type("text/html; charset=utf-8")
    .header(
      "content-security-policy",
      "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'",
    )
    .send(
      `<!doctype html><meta charset="utf-8"><title>vcw: sign in</title>${FAVICON_LINK}<style>body{font:16px system-ui;margin:4rem auto;max-width:32rem}</style><h1>vcw</h1>${body}`,
    );
}
