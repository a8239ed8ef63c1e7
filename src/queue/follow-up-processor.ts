import type { Job } from "bullmq";
import { countryOf } from "../config/ingest-options.ts";
import { e164OfServicePhone } from "../lib/phone-e164.ts";
import { campaignKey, followUpCampaign } from "../pipeline/campaign/lifecycle.ts";
import { type ContactToImport, importContacts } from "../pipeline/contacts/import-contacts.ts";
import { resolveSegment } from "../pipeline/contacts/resolve-segment.ts";
import { FingerprintIndex } from "../pipeline/results/fingerprint-index.ts";
import type { ResultRecord } from "../pipeline/results/model.ts";
import { applyIntents } from "./intents.ts";
import { processResume } from "./poll-stops.ts";
import type { FollowUpJobData } from "./queues.ts";
import { jobOf, type WorkDeps } from "./work-deps.ts";

/**
 * Calls again the contacts of a finished campaign whose result means "try again": imports them
 * (exactly once, through the ledger) into a follow-up segment and asks for a follow-up campaign,
 * no earlier than the job's spacing after the first one ended, inside its calling window.
 */
export function createFollowUpProcessor(d: WorkDeps) {
  return async function processFollowUp(job: Job<FollowUpJobData>) {
    const def = jobOf(d, job.data.job);
    if (job.data.resume) return processResume(d, def, job.data.campaignId);
    const stored = await d.store.get(job.data.campaignId);
    if (!stored || !def.followUps) return { contacts: 0 };
    const { info } = stored;
    const retry = new Set(def.polling.statuses.retry);
    /**
     * The records to call again, each phone once (HSCAN may repeat one), suppressed ones left out,
     * in batches: read from Redis as they are needed, never all at once.
     */
    async function* again(): AsyncGenerator<ResultRecord[]> {
      const seen = new FingerprintIndex();
      let batch: ResultRecord[] = [];
      const callable = async () => {
        const suppressed = await d.suppression.which(batch.map((r) => r.phone));
        const out = batch.filter((r) => !suppressed.has(r.phone));
        batch = [];
        return out;
      };
      for await (const stored of d.store.allRecords(info.id)) {
        // Records polled before phones were read as E.164 may hold the service's spelling.
        const r = { ...stored, phone: e164OfServicePhone(stored.phone, countryOf(def)) ?? stored.phone };
        if (!retry.has(r.status) || !seen.firstSight(r.phone)) continue;
        batch.push(r);
        if (batch.length >= 500) yield await callable();
      }
      yield await callable();
    }
    let any = false;
    for await (const batch of again()) {
      if (batch.length === 0) continue;
      any = true;
      break;
    }
    if (!any) return { contacts: 0 };

    const intent = followUpCampaign(def, info, "", stored.lastChangeAt);
    const request = intent.request;
    const segment = await resolveSegment(
      d.client,
      d.redis,
      d.keys,
      { name: request.name, description: `Follow-up ${request.attempt} of campaign ${info.id}` },
      { lockMs: d.leaseMs, ownName: true },
    );
    let contacts = 0;
    async function* rows(): AsyncGenerator<ContactToImport> {
      for await (const batch of again()) {
        for (const r of batch) {
          const contact = {
            phone: r.phone,
            ...(r.first_name ? { first_name: r.first_name } : {}),
            ...(r.last_name ? { last_name: r.last_name } : {}),
          };
          yield { phone: r.phone, index: contacts++, contact };
        }
      }
    }
    const counts = await importContacts(rows(), {
      client: d.client,
      ledger: d.ledger,
      segmentId: segment.id,
      owner: `${job.id}#${job.attemptsStarted}`,
      country: countryOf(def),
    });
    // Follow-ups are exempt from the cooldown, but they count as calls.
    const plannedAt = request.notBefore ?? d.now();
    for await (const batch of again()) {
      for (const r of batch) await d.history.reserve(r.phone, campaignKey(request), plannedAt, 0, true);
    }
    await applyIntents([{ ...intent, request: { ...request, segmentId: segment.id } }], d);
    d.logger.info({ campaign: info.id, attempt: info.attempt + 1, contacts }, "follow-up requested");
    return { contacts, created: counts.created, segmentId: segment.id };
  };
}
