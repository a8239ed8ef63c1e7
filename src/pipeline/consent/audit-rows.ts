import type { AuditEntry } from "../stores/audit-log.ts";
import type { ConsentRecord } from "../stores/consent-store.ts";

/** The columns of `vcw audit export --format csv`, one row per entry (new ones appended: readers by position keep working). */
export const AUDIT_COLUMNS = [
  "at",
  "decision",
  "number",
  "job",
  "campaign",
  "file",
  "row",
  "reason",
  "message",
  "consent_required",
  "consent_given_at",
  "consent_kind",
  "consent_source",
  "consent_text_sha256",
  "consent_seller",
  "consent_file",
  "trustedform_cert_url",
  "jornaya_leadid",
  "rules",
  "scheduled_at",
  "zone",
  "local_hours",
  "do_not_call_lists",
  "start_check_at",
  "caps",
  "reservations",
  "variant",
  "consent_seller_required",
  "consent_revoked_at",
  "consent_revoked_via",
] as const;

interface Facts {
  requirement?: string;
  /** The seller the job's consent must name; null or absent: any. */
  seller?: string | null;
  consent?: ConsentRecord | null;
  revocation?: { at: string; via: string } | null;
  rules?: { id: string; read: string; sha256: string }[];
  window?: { scheduledAt?: string; zone?: string; hours?: { timezone: string; from: string; to: string }[] };
  doNotCall?: { source: string; file: string; importedAt: string; sha256?: string; version?: string }[];
  startCheck?: { at: string };
  caps?: Record<string, unknown>;
  reservations?: number;
  variant?: string;
}

const iso = (ms: number | undefined) => (ms === undefined ? "" : new Date(ms).toISOString());

/** One entry as a CSV row, in AUDIT_COLUMNS order. Pure. */
export function auditRow(e: AuditEntry): string[] {
  const f = (e.facts ?? {}) as Facts;
  const c = f.consent ?? undefined;
  const w = f.window ?? {};
  return [
    iso(e.at),
    e.decision,
    e.phone,
    e.job,
    e.campaign ?? "",
    e.file ?? "",
    e.row === undefined ? "" : String(e.row),
    e.reason ?? "",
    e.message ?? "",
    f.requirement ?? "",
    iso(c?.givenAt),
    c?.kind ?? "",
    c?.source ?? "",
    c?.textHash ?? "",
    c?.seller ?? "",
    c ? `${c.file} row ${c.row}` : "",
    c?.trustedForm ?? "",
    c?.leadId ?? "",
    (f.rules ?? []).map((r) => `${r.id} (read ${r.read || "-"}, ${r.sha256})`).join("; "),
    w.scheduledAt ?? "",
    w.zone ?? "",
    (w.hours ?? []).map((h) => `${h.timezone} ${h.from}-${h.to}`).join("; "),
    (f.doNotCall ?? [])
      .map(
        (l) =>
          `${l.source} ${l.file} imported ${l.importedAt} ${l.sha256 ? `sha256 ${l.sha256}` : `version ${l.version}`}`,
      )
      .join("; "),
    f.startCheck?.at ?? "",
    f.caps ? JSON.stringify(f.caps) : "",
    f.reservations === undefined ? "" : String(f.reservations),
    f.variant ?? "",
    f.seller ?? "",
    f.revocation?.at ?? "",
    f.revocation?.via ?? "",
  ];
}

/** One entry's cells by column name. Pure. */
export function auditCells(e: AuditEntry): Record<(typeof AUDIT_COLUMNS)[number], string> {
  const row = auditRow(e);
  return Object.fromEntries(AUDIT_COLUMNS.map((c, i) => [c, row[i] ?? ""])) as Record<
    (typeof AUDIT_COLUMNS)[number],
    string
  >;
}
