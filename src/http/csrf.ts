import csrfProtection from "@fastify/csrf-protection";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";

/** The cookie a page's script reads the CSRF token from; Bull Board's client (axios) sends it back as X-XSRF-TOKEN by itself. */
export const XSRF_COOKIE = "XSRF-TOKEN";
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

export interface CsrfOptions {
  secure: (req: FastifyRequest) => boolean;
  /** VCW_PUBLIC_URL's origin: a page served through it posts from there. */
  publicOrigin?: string | undefined;
  logger: Logger;
}

const tokenOf = (req: FastifyRequest): string | undefined => {
  const h = req.headers["x-csrf-token"] ?? req.headers["x-xsrf-token"];
  if (typeof h === "string") return h;
  const body = req.body as Record<string, unknown> | undefined;
  return typeof body?._csrf === "string" ? body._csrf : undefined;
};

/** Whether a state-changing request comes from a page of this server (or from no page at all). */
function sameOrigin(req: FastifyRequest, publicOrigin: string | undefined): boolean {
  const origin = req.headers.origin;
  const site = req.headers["sec-fetch-site"];
  // "null": a page under `Referrer-Policy: no-referrer` (ours) posting a form. Then the browser's
  // Sec-Fetch-Site decides: "same-origin" only ("same-site" is another port of this host, too).
  if (origin === "null") return site === "same-origin";
  // No Origin: not a browser's request, unless the browser says where it came from.
  if (origin === undefined) return site === undefined || site === "same-origin" || site === "none";
  return origin === `${req.protocol}://${req.headers.host}` || origin === publicOrigin;
}

/**
 * Every state-changing request (anything but GET, HEAD, OPTIONS) must come from this server's own
 * origin, and, unless it carries the bearer token (no browser sends that by itself), a CSRF token
 * (@fastify/csrf-protection, double-submit: a secret in an HttpOnly cookie, the token in
 * XSRF-TOKEN for the page to send back). `SameSite=Strict` alone is not enough: it ignores ports.
 * Sign-in is checked for its origin only (there is no session to ride yet); so is everything when
 * no token is set, since then nothing can be changed (server.ts).
 */
export async function installCsrf(app: FastifyInstance, o: CsrfOptions): Promise<void> {
  await app.register(csrfProtection, {
    cookieKey: "vcw_csrf",
    cookieOpts: { path: "/", sameSite: "strict", httpOnly: true },
    getToken: (req) => tokenOf(req) as string,
  });
  const refuse = (req: FastifyRequest, reply: FastifyReply, why: string) => {
    o.logger.warn(
      { client: req.ip, method: req.method, path: req.url.split("?")[0], origin: req.headers.origin },
      `request refused: ${why}`,
    );
    return reply.code(403).send({ error: why });
  };
  app.addHook("onRequest", async (req, reply) => {
    if (SAFE.has(req.method)) return handOutToken(req, reply, o);
    if (!sameOrigin(req, o.publicOrigin))
      return refuse(req, reply, "a state-changing request must come from this server's own pages");
  });
  app.addHook("preHandler", (req, reply, done) => {
    const path = req.url.split("?")[0]!;
    // No session to ride: a bearer (no browser sends one by itself), or no token set (nothing can be changed).
    if (SAFE.has(req.method) || path === "/login" || ["token", "local"].includes(req.operator)) return done();
    const fail = (error?: Error) =>
      error ? void refuse(req, reply, "a missing or wrong CSRF token: reload the page") : done();
    // The plugin answers a failure with reply.send(error): caught here, so every route (Bull Board's
    // own error handler included) refuses it the same way.
    app.csrfProtection(req, { send: fail } as unknown as FastifyReply, done);
  });
}

/** A page (HTML) gets a fresh token in a cookie its scripts can read. */
function handOutToken(req: FastifyRequest, reply: FastifyReply, o: CsrfOptions): void {
  if (!req.headers.accept?.includes("text/html") || req.url.startsWith("/login")) return;
  if (!req.operator) return;
  const secure = o.secure(req);
  const token = reply.generateCsrf({ secure });
  reply.setCookie(XSRF_COOKIE, token, { path: "/", sameSite: "strict", secure, httpOnly: false });
}
