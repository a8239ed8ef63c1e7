import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { campaignFileBase } from "../lib/campaign-file-name.ts";
import { maskPhone, maskPhonesIn } from "../lib/mask-phone.ts";
import { auditCells } from "../pipeline/consent/audit-rows.ts";
import { resultsCsv } from "../pipeline/reports/results-csv.ts";
import type { AuditLog } from "../pipeline/stores/audit-log.ts";
import type { CampaignStore } from "../pipeline/stores/campaign-store.ts";
import type { CampaignIndex } from "./campaign-index.ts";
import { maskedRow, PHASES, queryRows, timeline } from "./campaign-rows.ts";
import { ASSET_DIR, PAGE_HEADERS } from "./dashboard.ts";

const Query = z.object({
  job: z.string().max(200).optional(),
  phase: z.enum(PHASES as [string, ...string[]]).optional(),
  zone: z.string().max(100).optional(),
  // A day of the calendar: 2026-13-45 and 2026-02-30 are refused, not compared as text.
  from: z.iso.date("must be a date YYYY-MM-DD").optional(),
  to: z.iso.date("must be a date YYYY-MM-DD").optional(),
  page: z.coerce.number().int().min(1).default(1),
  per: z.coerce.number().int().min(1).max(200).default(50),
});

export interface CampaignsPageOptions {
  index: CampaignIndex;
  store: CampaignStore;
  canReveal: boolean;
  /** The audit trail: the campaign's records, shown with the number masked. */
  audit: Pick<AuditLog, "ofScope">;
}

/** A campaign's audit records as the page shows them: the number masked, the facts an operator reads. */
async function auditOf(audit: CampaignsPageOptions["audit"], id: string) {
  const { count, entries } = await audit.ofScope(`campaign:${id}`);
  return {
    count,
    entries: entries.map((e) => {
      const c = auditCells(e);
      return {
        at: c.at,
        number: maskPhone(e.phone),
        consent: c.consent_kind
          ? `${c.consent_kind}, given ${c.consent_given_at} (${maskPhonesIn(c.consent_file)})`
          : "none on record",
        evidence: [c.trustedform_cert_url && "TrustedForm", c.jornaya_leadid && "LeadiD"]
          .filter(Boolean)
          .join(", "),
        rules: c.rules,
        doNotCall: c.do_not_call_lists,
        window: [c.zone, c.local_hours].filter(Boolean).join(" "),
      };
    }),
  };
}

/**
 * The campaigns view: every kept campaign, paginated and filtered (job, phase, zone, dates), at
 * `/campaigns`; one campaign with its status changes over time at `/campaigns/:id`; its results
 * as CSV at `/campaigns/:id/results.csv`: the one results CSV (`pipeline/reports/results-csv.ts`), phones
 * masked unless shown behind a token.
 */
export function installCampaignsPage(app: FastifyInstance, o: CampaignsPageOptions): void {
  const html = readFileSync(`${ASSET_DIR}campaigns.html`);
  const js = readFileSync(`${ASSET_DIR}campaigns.js`);
  const page = async (_req: FastifyRequest, reply: FastifyReply) =>
    reply.headers(PAGE_HEADERS).type("text/html; charset=utf-8").send(html);
  app.get("/campaigns", page);
  app.get("/campaigns/:id", page);
  app.get("/campaigns.js", async (_req, reply) =>
    reply.headers(PAGE_HEADERS).type("text/javascript; charset=utf-8").send(js),
  );

  app.get("/api/campaigns", async (req, reply) => {
    // An empty field of the filter form means "any".
    const given = Object.entries(req.query as Record<string, string>).filter(([, v]) => v !== "");
    const q = Query.safeParse(Object.fromEntries(given));
    if (!q.success)
      return reply.code(400).send({
        error: q.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
      });
    const all = await o.index.get();
    const { total, rows } = queryRows(all, q.data as Parameters<typeof queryRows>[1]);
    const facets = {
      jobs: [...new Set(all.map((r) => r.job))].sort(),
      zones: [...new Set(all.map((r) => r.zone))].sort(),
    };
    return reply
      .header("cache-control", "no-store")
      .send({ total, page: q.data.page, per: q.data.per, facets, campaigns: rows.map(maskedRow) });
  });

  app.get("/api/campaigns/:id", async (req, reply) => {
    const { id = "" } = req.params as { id?: string };
    const row = (await o.index.get()).find((r) => r.id === id);
    if (!row) return reply.code(404).send({ error: `no campaign ${id} is kept` });
    const [transitions, audit] = await Promise.all([o.store.transitions(id), auditOf(o.audit, id)]);
    return reply
      .header("cache-control", "no-store")
      .send({ campaign: maskedRow(row), timeline: timeline(transitions), audit });
  });

  app.get("/campaigns/:id/results.csv", async (req, reply) => {
    const { id = "" } = req.params as { id?: string };
    const show = (req.query as Record<string, string>).phones === "show";
    if (show && !o.canReveal)
      return reply
        .code(403)
        .send({ error: "phone numbers are shown only behind a token: set VCW_HTTP_TOKEN" });
    const stored = await o.store.get(id);
    if (!stored) return reply.code(404).send({ error: `no campaign ${id} is kept` });
    return reply
      .headers({ "x-content-type-options": "nosniff", "cache-control": "no-store" })
      .header(
        "content-disposition",
        `attachment; filename*=UTF-8''${encodeURIComponent(`${campaignFileBase(stored.info)}.results.csv`)}`,
      )
      .type("text/csv; charset=utf-8")
      .send(
        Readable.from(
          resultsCsv(o.store.allRecords(id), {
            ...(show ? {} : { phone: maskPhone }),
            callerNumber: stored.info.dialerNumber,
            // A large campaign's sorted runs: temporary files, removed as the download ends.
            spillAt: join(tmpdir(), `vcw-download-${randomUUID()}.csv`),
          }),
        ),
      );
  });
}
