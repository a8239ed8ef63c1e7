import type { FastifyInstance } from "fastify";
import { BOARD_PATH } from "./board.ts";

/**
 * Bull Board's page: its own scripts and styles only, no font or anything else from another origin
 * (its template links Google Fonts: the link is taken out, and the page falls back to system fonts).
 */
const BOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'self'";

/** A stylesheet, preconnect or other link to another origin in a page's head. */
const OUTSIDE_LINK = /<link\b[^>]*\bhref="(?:https?:)?\/\/[^"]*"[^>]*>\s*/gi;

/**
 * No page of this server may be framed, from any origin (a click in an invisible frame would act
 * with the operator's cookie: SameSite counts another port of the same host as the same site).
 * Every response says so twice (CSP `frame-ancestors 'none'` for today's browsers, X-Frame-Options
 * for older ones); a page with its own CSP gets the directive added if it lacks it.
 */
export function installFrameGuard(app: FastifyInstance): void {
  app.addHook("onSend", async (req, reply, payload) => {
    reply.header("x-frame-options", "DENY");
    const path = req.url.split("?")[0]!;
    const html = String(reply.getHeader("content-type") ?? "").startsWith("text/html");
    if (html && (path === BOARD_PATH || path.startsWith(`${BOARD_PATH}/`))) {
      reply.header("content-security-policy", BOARD_CSP);
      return typeof payload === "string" ? payload.replace(OUTSIDE_LINK, "") : payload;
    }
    const csp = reply.getHeader("content-security-policy");
    if (csp === undefined) reply.header("content-security-policy", "frame-ancestors 'none'");
    else if (!/frame-ancestors/.test(String(csp)))
      reply.header("content-security-policy", `${String(csp)}; frame-ancestors 'none'`);
    return payload;
  });
}
