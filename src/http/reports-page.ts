import type { FastifyInstance, FastifyReply } from "fastify";
import type { JobDefinition } from "../config/job-definition.ts";
import { zoneOf } from "../config/job-zone.ts";
import type { InboxStores } from "../inbox/inbox-store.ts";
import { maskPhonesDeep } from "../lib/mask-phone.ts";
import { summarize } from "../pipeline/model/campaign-totals.ts";
import { kindOf } from "../pipeline/model/results.ts";
import type { ExperimentFacts } from "../pipeline/reports/gather-experiment.ts";
import { gatherReport } from "../pipeline/reports/gather-report.ts";
import { esc } from "../pipeline/reports/html-escape.ts";
import { askedPeriod } from "../pipeline/reports/period.ts";
import type { CampaignStore } from "../pipeline/stores/campaign-store.ts";
import type { Queues } from "../queue/queues.ts";
import { queueReportSources } from "../queue/read-model/report-sources.ts";
import { HEAD_EXTRAS, pageHeader } from "./page-header.ts";

export interface ReportsPageOptions {
  store: CampaignStore;
  /** A job's experiment decisions and assignments, for its section. */
  experiments?: ExperimentFacts | undefined;
  inboxes: InboxStores;
  queues?: Queues;
  jobs: () => ReadonlyMap<string, JobDefinition>;
  publicUrl?: string | undefined;
  /** How long a built page is served again before it is built anew. */
  cacheMs?: number;
}

/** The ranges the Reports view offers per job. */
export const REPORT_RANGES = { "24h": "last 24 hours", "7d": "last 7 days" } as const;

/** The page has styles (inline, or the dashboard's), SVG and its icon, and nothing else: no script, no other origin. */
const PAGE_HEADERS = {
  "content-security-policy":
    "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

const page = (reply: FastifyReply, html: string) =>
  reply.headers(PAGE_HEADERS).type("text/html; charset=utf-8").send(html);

const rangeLinks = (job: string) =>
  Object.entries(REPORT_RANGES)
    .map(([range, label]) => `<a href="/reports/${encodeURIComponent(job)}?range=${range}">${esc(label)}</a>`)
    .join(" · ");

/**
 * The Reports view: per job, the report page of the last 24 hours and 7 days (`/reports`,
 * `/reports/<job>?range=24h|7d`, or `?from=ISO&to=ISO` as scheduled reports link to), and a
 * campaign's summary (`/reports/campaigns/<id>`), which the pages link to. Behind the dashboard's auth.
 */
export function installReportsPage(app: FastifyInstance, o: ReportsPageOptions): void {
  const cache = new Map<string, { at: number; html: Promise<string> }>();
  const cacheMs = o.cacheMs ?? 60_000;

  app.get("/reports", async (_req, reply) => {
    const rows = [...o.jobs().keys()]
      .sort()
      .map((job) => `<tr><td><strong>${esc(job)}</strong></td><td>${rangeLinks(job)}</td></tr>`)
      .join("");
    return page(
      reply,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>vcw reports</title>
${HEAD_EXTRAS}<link rel="stylesheet" href="/dashboard.css"></head>
<body>${pageHeader()}<main><section><h2>Reports</h2><table id="report-list"><thead><tr><th>job</th><th>report</th></tr></thead>
<tbody>${rows || '<tr class="empty"><td colspan="2">no job is defined</td></tr>'}</tbody></table></section></main></body></html>`,
    );
  });

  app.get("/reports/campaigns/:id", async (req, reply) => {
    const { id = "" } = req.params as { id?: string };
    const s = await o.store.get(id);
    if (!s) return reply.code(404).send({ error: "no such campaign" });
    return reply
      .header("cache-control", "no-store")
      .send(maskPhonesDeep(summarize(s.info, s.totals, s.version, kindOf(s.info.state), Date.now())));
  });

  app.get("/reports/:job", async (req, reply) => {
    const { job = "" } = req.params as { job?: string };
    const q = req.query as { range?: string; from?: string; to?: string };
    const def = o.jobs().get(job);
    if (!def) return reply.code(404).send({ error: "no such job" });
    const range = q.range ?? "24h";
    if (!q.from && !(range in REPORT_RANGES))
      return reply.code(400).send({ error: `range must be one of ${Object.keys(REPORT_RANGES).join(", ")}` });
    // The period ends when the page is made (its header's end is its footer's "Made"). A range's page
    // is built once a minute, whoever asks: many viewers, one build.
    const now = Date.now();
    const period = askedPeriod(q.from ? { from: q.from, to: q.to } : { since: range }, now, zoneOf(def));
    if ("error" in period) return reply.code(400).send({ error: period.error.replace(/--/g, "") });
    const key =
      q.from && q.to
        ? `${job} ${period.from} ${period.to}`
        : `${job} ${q.from ?? range} ${Math.floor(now / 60_000)}`;
    let hit = cache.get(key);
    if (!hit || Date.now() - hit.at > cacheMs) {
      const sources = {
        store: o.store,
        experiments: o.experiments,
        inboxes: o.inboxes,
        publicUrl: o.publicUrl,
        // The page is on the dashboard: its campaigns link to their pages beside it.
        pagesAt: o.publicUrl ?? "",
        ...(o.queues ? queueReportSources(o.queues) : {}),
      };
      // Charts load Vega: on the first page asked, not at every start.
      const html = Promise.all([
        gatherReport([def], period, sources, now),
        import("../pipeline/reports/render.ts"),
      ]).then(([r, { renderReportPage }]) =>
        renderReportPage(r, {
          nav: `${pageHeader()}<nav class="vcw-header" style="max-width:760px;margin:0 auto;padding:10px 16px 0;font:14px system-ui,sans-serif"><a href="/reports">all reports</a> · ${rangeLinks(job)}</nav>`,
          head: HEAD_EXTRAS,
        }),
      );
      hit = { at: Date.now(), html };
      html.catch(() => cache.delete(key));
      for (const [k, v] of cache) if (Date.now() - v.at > cacheMs) cache.delete(k);
      cache.set(key, hit);
    }
    return page(reply, await hit.html);
  });
}
