import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { JobDefinition } from "../config/job-definition.ts";
import type { InboxStores } from "../inbox/inbox-store.ts";
import { eventStreams, type ReadEvent } from "./event-streams.ts";
import { type LiveOverview, present } from "./live-overview.ts";
import type { Overview } from "./overview.ts";
import { findReport, MAX_SERVED_BYTES, reportText } from "./report-file.ts";

/** The page's files, read once; nothing else is served from the disk by name. */
const ASSETS: Record<string, { file: string; type: string }> = {
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/common.js": { file: "common.js", type: "text/javascript; charset=utf-8" },
  "/dashboard.js": { file: "dashboard.js", type: "text/javascript; charset=utf-8" },
  "/dashboard.css": { file: "dashboard.css", type: "text/css; charset=utf-8" },
};
export const ASSET_DIR = fileURLToPath(new URL("./dashboard/", import.meta.url));

/** No inline script, no other origin: the page can only talk to this server. */
export const PAGE_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

export interface DashboardOptions {
  live: LiveOverview;
  jobs: () => ReadonlyMap<string, JobDefinition>;
  inboxes: InboxStores;
  /** Phones may be shown on request: only behind a token (an authenticated operator). */
  canReveal: boolean;
  /** How often a live page is sent a new overview (when it changed). */
  everyMs?: number;
  /** Live pages served at once (VCW_HTTP_MAX_STREAMS). */
  maxStreams?: number;
}

/**
 * The dashboard: a page (plain HTML and JS, no build), its data as JSON (`/api/overview`) and as
 * server-sent events (`/api/events`), and the reports it links to. Phone numbers are masked unless
 * `?phones=show` is asked by an authenticated operator.
 */
export function installDashboard(app: FastifyInstance, o: DashboardOptions): { close(): void } {
  for (const [path, asset] of Object.entries(ASSETS)) {
    const body = readFileSync(`${ASSET_DIR}${asset.file}`);
    app.get(path, async (_req, reply) => reply.headers(PAGE_HEADERS).type(asset.type).send(body));
  }
  const reveal = (req: FastifyRequest, reply: FastifyReply): boolean | undefined => {
    if ((req.query as Record<string, string>).phones !== "show") return false;
    if (o.canReveal) return true;
    void reply.code(403).send({ error: "phone numbers are shown only behind a token: set VCW_HTTP_TOKEN" });
    return undefined;
  };

  app.get("/api/overview", async (req, reply) => {
    const show = reveal(req, reply);
    if (show === undefined) return reply;
    return reply
      .header("cache-control", "no-store")
      .send({ ...present(await o.live.get(), show), canReveal: o.canReveal });
  });

  const streams = eventStreams(serialised(o), { max: o.maxStreams ?? 50, everyMs: o.everyMs ?? 1_000 });
  app.get("/api/events", async (req, reply) => {
    const show = reveal(req, reply);
    if (show === undefined) return reply;
    if (streams.size() >= (o.maxStreams ?? 50))
      return reply.code(503).header("retry-after", "30").send({
        error: "too many live dashboards are open (VCW_HTTP_MAX_STREAMS): close one, or read /api/overview",
      });
    reply.hijack();
    reply.raw.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
    });
    streams.open(reply.raw, show ? "shown" : "masked");
  });

  app.get("/files/:job/:folder/:name", async (req, reply) => {
    const { job = "", folder = "", name = "" } = req.params as Record<string, string | undefined>;
    const show = reveal(req, reply);
    if (show === undefined) return reply;
    const file = await findReport(o.jobs(), o.inboxes, job, folder, name);
    if (!file) return reply.code(404).send({ error: "no such report" });
    if (file.size > MAX_SERVED_BYTES)
      return reply
        .code(413)
        .send({ error: "this report is too large to serve: read it where it is (the disk or the bucket)" });
    return reply
      .headers({ "x-content-type-options": "nosniff", "cache-control": "no-store" })
      .header("content-disposition", `inline; filename*=UTF-8''${encodeURIComponent(name)}`)
      .type(file.kind === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8")
      .send(await reportText(file, show));
  });

  return { close: () => streams.close() };
}

/**
 * The event every stream of a kind is sent, made once per overview read and kind (not once per
 * viewer): the overview is kept a second or more, and so is its text.
 */
function serialised(o: DashboardOptions): ReadEvent {
  const made = new WeakMap<Overview, Map<string, { data: string; content: string }>>();
  return async (kind) => {
    const overview = await o.live.get();
    const byKind = made.get(overview) ?? new Map<string, { data: string; content: string }>();
    made.set(overview, byKind);
    let e = byKind.get(kind);
    if (!e) {
      const { generatedAt, ...rest } = present(overview, kind === "shown");
      const content = JSON.stringify({ ...rest, canReveal: o.canReveal });
      e = { data: `{"generatedAt":${JSON.stringify(generatedAt)},${content.slice(1)}`, content };
      byKind.set(kind, e);
    }
    return e;
  };
}
