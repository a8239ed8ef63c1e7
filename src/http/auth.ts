import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** Paths an orchestrator probes without credentials: they tell nothing but "alive" and "ready". */
export const OPEN_PATHS = new Set(["/livez", "/readyz", "/login"]);
export const TOKEN_COOKIE = "vcw_token";

const digest = (s: string) => createHash("sha256").update(s).digest();
/** Compared as digests: equal lengths, constant time, nothing learnt from how long a check takes. */
const same = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/** What the browser keeps: derived from the token, so the token itself never sits in a cookie jar. */
const sessionOf = (token: string) =>
  createHmac("sha256", token).update("vcw dashboard session").digest("base64url");

/** Whether a request carries the token (bearer header) or the session cookie derived from it. */
function authenticated(req: FastifyRequest, token: string): boolean {
  const auth = req.headers.authorization;
  if (auth?.startsWith("Bearer ")) return same(auth.slice(7).trim(), token);
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === TOKEN_COOKIE) return same(v.join("="), sessionOf(token));
  }
  return false;
}

/**
 * With a token, every path but the probes needs it: `Authorization: Bearer <token>` (Prometheus,
 * curl), or the cookie `/login` sets (a browser; derived from the token, HttpOnly, SameSite=Strict,
 * so another site's page can't act with it). Without a token the server listens on loopback only (server.ts).
 */
export function installAuth(app: FastifyInstance, token: string | undefined): void {
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 4096 },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.get("/login", async (_req, reply) => loginPage(reply, token !== undefined, false));
  app.post("/login", async (req, reply) => {
    const given = String((req.body as Record<string, unknown> | undefined)?.token ?? "");
    if (!token) return reply.redirect("/", 303);
    if (!same(given, token)) return loginPage(reply.code(401), true, true);
    const secure = req.protocol === "https" ? "; Secure" : "";
    return reply
      .header("set-cookie", `${TOKEN_COOKIE}=${sessionOf(token)}; Path=/; HttpOnly; SameSite=Strict${secure}`)
      .redirect("/", 303);
  });
  if (!token) return;
  app.addHook("onRequest", async (req, reply) => {
    const path = req.url.split("?")[0]!;
    if (OPEN_PATHS.has(path)) return;
    if (authenticated(req, token)) return;
    if (req.method === "GET" && (path === "/" || req.headers.accept?.includes("text/html")))
      return reply.redirect("/login", 303);
    return reply
      .code(401)
      .header("www-authenticate", 'Bearer realm="vcw"')
      .send({ error: "a token is needed: Authorization: Bearer <VCW_HTTP_TOKEN>" });
  });
}

function loginPage(reply: FastifyReply, needed: boolean, wrong: boolean) {
  const body = needed
    ? `<form method="post" action="/login"><label>Token (VCW_HTTP_TOKEN) <input name="token" type="password" autocomplete="current-password" autofocus></label> <button>Sign in</button></form>${wrong ? "<p role=alert>That is not the token.</p>" : ""}`
    : `<p>No token is set: <a href="/">open the dashboard</a>.</p>`;
  return reply
    .type("text/html; charset=utf-8")
    .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'")
    .send(
      `<!doctype html><meta charset="utf-8"><title>vcw: sign in</title><style>body{font:16px system-ui;margin:4rem auto;max-width:32rem}</style><h1>vcw</h1>${body}`,
    );
}
