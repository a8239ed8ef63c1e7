import { readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { JobDefinition } from "../config/job-definition.ts";
import { type LiveOverview, present } from "./live-overview.ts";
import { findReport, MAX_SERVED_BYTES, reportText } from "./report-file.ts";

/** The page's files, read once; nothing else is served from the disk by name. */
const ASSETS: Record<string, { file: string; type: string }> = {
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/dashboard.js": { file: "dashboard.js", type: "text/javascript; charset=utf-8" },
  "/dashboard.css": { file: "dashboard.css", type: "text/css; charset=utf-8" },
};
const ASSET_DIR = fileURLToPath(new URL("./dashboard/", import.meta.url));

/** No inline script, no other origin: the page can only talk to this server. */
const PAGE_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

export interface DashboardOptions {
  live: LiveOverview;
  jobs: () => ReadonlyMap<string, JobDefinition>;
  /** Phones may be shown on request: only behind a token (an authenticated operator). */
  canReveal: boolean;
  /** How often a live page is sent a new overview (when it changed). */
  everyMs?: number;
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

  const streams = new Set<ServerResponse>();
  app.get("/api/events", async (req, reply) => {
    const show = reveal(req, reply);
    if (show === undefined) return reply;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
    });
    streams.add(res);
    let sent = "";
    let quietTicks = 0;
    const tick = async () => {
      const o2 = { ...present(await o.live.get(), show), canReveal: o.canReveal };
      const { generatedAt: _, ...content } = o2;
      const text = JSON.stringify(content);
      if (text !== sent) {
        sent = text;
        quietTicks = 0;
        res.write(`event: overview\ndata: ${JSON.stringify(o2)}\n\n`);
      } else if (++quietTicks % 15 === 0) res.write(": still here\n\n"); // keeps proxies from closing it
    };
    const timer = setInterval(() => void tick().catch(() => undefined), o.everyMs ?? 1_000);
    req.raw.on("close", () => {
      clearInterval(timer);
      streams.delete(res);
    });
    res.write("retry: 2000\n\n");
    await tick().catch(() => undefined);
  });

  app.get("/files/:job/:folder/:name", async (req, reply) => {
    const { job = "", folder = "", name = "" } = req.params as Record<string, string | undefined>;
    const show = reveal(req, reply);
    if (show === undefined) return reply;
    const file = await findReport(o.jobs(), job, folder, name);
    if (!file) return reply.code(404).send({ error: "no such report" });
    if (file.size > MAX_SERVED_BYTES)
      return reply.code(413).send({ error: "this report is too large to serve: read it on the disk" });
    return reply
      .headers({ "x-content-type-options": "nosniff", "cache-control": "no-store" })
      .header("content-disposition", `inline; filename*=UTF-8''${encodeURIComponent(name)}`)
      .type(file.kind === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8")
      .send(await reportText(file, show));
  });

  return {
    close() {
      for (const res of streams) res.end();
      streams.clear();
    },
  };
}
