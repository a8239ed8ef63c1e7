import { createHash } from "node:crypto";
import { RULE_SETS } from "../../calling-rules/index.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import { requirementFor, servingConsent } from "../consent/consent-record.ts";
import type { AuditEntry, AuditLog } from "../stores/audit-log.ts";
import type { CallFrequency } from "../stores/call-frequency.ts";
import type { StoredCampaign } from "../stores/campaign-registry.ts";
import type { ConsentStore } from "../stores/consent-store.ts";
import type { StopReason } from "../stores/stop-store.ts";
import type { SuppressionList } from "../stores/suppression.ts";

export interface CallAuditDeps {
  audit: Pick<AuditLog, "append">;
  consent: Pick<ConsentStore, "read">;
  suppression: { lists: Pick<SuppressionList["lists"], "lists"> };
  frequency?: Pick<CallFrequency, "callTimes"> | undefined;
  now: () => number;
}

/** A rule set as the trail names it: its id, the latest date its sources were read, a digest of its data. */
function ruleSetVersion(id: string, def: JobDefinition) {
  const data = JSON.stringify((id === "custom" ? def.calling.custom : RULE_SETS[id]) ?? null);
  const read = [...data.matchAll(/"read":"(\d{4}-\d{2}-\d{2})"/g)].map((m) => m[1]!).sort();
  const digest = createHash("sha256").update(data).digest("hex").slice(0, 12);
  return { id, read: read.at(-1) ?? "", sha256: digest };
}

/** What every record of a campaign's number says: when, what, who, which campaign and file. */
const ofCampaign = (
  info: StoredCampaign["info"],
  phone: string,
  at: number,
  decision: AuditEntry["decision"],
): AuditEntry => ({ at, decision, phone, job: info.job, campaign: info.id, file: info.file });

/**
 * The audit trail's record of each contact a campaign's audience shows for the first time (the
 * service reports its call): the campaign and its window, the consent relied on (the one serving
 * the job: its seller's when it names one) and the number's revocation, the rule sets and
 * their versions, the do-not-call lists in force (content hash, import time) and the check before
 * the start, the caps and the number's reservations, the variant. Once per campaign and number
 * (decision 0067).
 */
export function callAudit(def: JobDefinition, d: CallAuditDeps) {
  return async (stored: StoredCampaign, phones: readonly string[]): Promise<void> => {
    if (phones.length === 0) return;
    const now = d.now();
    const { info } = stored;
    const [consents, lists, times] = await Promise.all([
      d.consent.read(phones),
      d.suppression.lists.lists(),
      d.frequency ? d.frequency.callTimes(phones, now) : Promise.resolve(new Map<string, unknown[]>()),
    ]);
    const shared = {
      rules: (def.calling.rules ?? []).map((id) => ruleSetVersion(id, def)),
      window: {
        scheduledAt: info.scheduledAt,
        ...(info.zone ? { zone: info.zone } : {}),
        ...(info.region ? { region: info.region } : {}),
        ...(info.slot ? { slot: info.slot } : {}),
        ...(info.hours ? { hours: info.hours } : {}),
        ...(info.callUntil !== undefined ? { callUntil: new Date(info.callUntil).toISOString() } : {}),
      },
      doNotCall: lists.map((l) => ({
        source: l.source,
        file: l.file,
        numbers: l.numbers,
        importedAt: new Date(l.importedAt).toISOString(),
        ...(l.sha256 ? { sha256: l.sha256 } : { version: l.version }),
      })),
      ...(stored.startCheck
        ? { startCheck: { at: stored.startCheck.at, withdrawn: stored.startCheck.withdrawn } }
        : {}),
      caps: def.calling.caps,
      ...(info.variant ? { variant: info.variant } : {}),
    };
    const entries = phones.map((phone) => {
      const kept = consents.get(phone);
      // The job's rule as it applies to this number (`calling.consent.countries`).
      const requirement = requirementFor(def.calling.consent, phone);
      const { seller } = def.calling.consent;
      const entry: AuditEntry = {
        ...ofCampaign(info, phone, now, "called"),
        facts: {
          ...shared,
          requirement,
          // The seller the job's consent must name (`calling.consent.seller`); null: any.
          seller: seller ?? null,
          campaignName: info.name,
          // The consent that serves this job: its seller's, after any revocation, written first
          // under require: written (as the gate chose); null when none does.
          consent:
            servingConsent(kept?.consents ?? [], {
              require: requirement,
              seller,
              revokedAt: kept?.revokedAt,
            }) ?? null,
          // The number's revocation (every seller's consent given before it is void); null: none.
          revocation:
            kept?.revokedAt !== undefined
              ? { at: new Date(kept.revokedAt).toISOString(), via: kept.revokedVia ?? "" }
              : null,
          reservations: times.get(phone)?.length ?? 0,
        },
      };
      return { item: phone, entry };
    });
    await d.audit.append(`campaign:${info.id}`, entries);
  };
}

/** Why a stop took a contact out, in the trail's words. */
const STOP_WORDS: Record<StopReason, string> = {
  "opted-out": "opted out, its consent revoked or put on a do-not-call list while the campaign ran",
  "frequency-cap": "over a frequency cap after another campaign's reservation",
  "window-closed": "its calling window closed before it was dialled",
  operator: "the operator stopped the campaign",
};

/**
 * Each contact a stop took out of a running campaign before it was dialled, as a refusal (once per
 * campaign and number, whatever the retries): the stop's reason.
 */
export async function auditTakenOut(
  audit: Pick<AuditLog, "append"> | undefined,
  info: StoredCampaign["info"],
  taken: readonly { phone: string; reason: StopReason; at: number }[],
): Promise<void> {
  if (!audit || taken.length === 0) return;
  const entries = taken.map((c) => ({
    item: c.phone,
    entry: {
      ...ofCampaign(info, c.phone, c.at, "refused"),
      reason: c.reason,
      message: `taken out of the running campaign before it was dialled: ${STOP_WORDS[c.reason]}`,
    } satisfies AuditEntry,
  }));
  await audit.append(`stop:${info.id}`, entries);
}

/**
 * Each number the check before a campaign's start withdrew, as a refusal (once per campaign and
 * number): on a do-not-call list, or opted out or its consent revoked since the import.
 */
export async function auditWithdrawn(
  audit: Pick<AuditLog, "append"> | undefined,
  info: StoredCampaign["info"],
  phones: readonly string[],
  listed: ReadonlyMap<string, string>,
  now: number,
): Promise<void> {
  if (!audit || phones.length === 0) return;
  const entries = phones.map((phone) => {
    const list = listed.get(phone);
    const entry: AuditEntry = {
      ...ofCampaign(info, phone, now, "refused"),
      reason: list ? "do_not_call" : "opted_out",
      message: list
        ? `on the do-not-call list "${list}": withdrawn at the check before the start`
        : "opted out or its consent revoked since the import: withdrawn at the check before the start",
    };
    return { item: phone, entry };
  });
  await audit.append(`start-check:${info.id}`, entries);
}
