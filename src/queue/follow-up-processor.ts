import type { Job } from "bullmq";
import { createContactLedger } from "../pipeline/contact-ledger.ts";
import { type ContactToImport, importContacts } from "../pipeline/import-contacts.ts";
import { resolveSegment } from "../pipeline/resolve-segment.ts";
import type { FollowUpJobData } from "./queues.ts";
import { jobOf, type WorkDeps } from "./work-deps.ts";

/**
 * Calls again the contacts of a finished campaign whose result means "try again": imports them
 * (exactly once, through the ledger) into a follow-up segment and asks for a follow-up campaign,
 * no earlier than the job's spacing after the first one ended, inside its calling window.
 */
export function createFollowUpProcessor(d: WorkDeps) {
  const ledger = createContactLedger(d.redis, { prefix: d.prefix, leaseMs: d.leaseMs });
  return async function processFollowUp(job: Job<FollowUpJobData>) {
    const def = jobOf(d, job.data.job);
    const stored = await d.store.get(job.data.campaignId);
    if (!stored || !def.followUps) return { contacts: 0 };
    const { info } = stored;
    const retry = new Set(def.polling.statuses.retry);
    const candidates = [];
    for await (const r of d.store.allRecords(info.id)) if (retry.has(r.status)) candidates.push(r);
    const suppressed = await d.suppression.which(candidates.map((r) => r.phone));
    const again = candidates.filter((r) => !suppressed.has(r.phone));
    if (again.length === 0) return { contacts: 0 };

    const attempt = info.attempt + 1;
    const segment = await resolveSegment(
      d.client,
      d.redis,
      {
        name: `${info.name} → follow-up ${attempt}`,
        description: `Follow-up ${attempt} of campaign ${info.id}`,
      },
      { prefix: d.prefix, lockMs: d.leaseMs },
    );
    async function* rows(): AsyncGenerator<ContactToImport> {
      for (const [index, r] of again.entries()) {
        const contact = {
          phone: r.phone,
          ...(r.first_name ? { first_name: r.first_name } : {}),
          ...(r.last_name ? { last_name: r.last_name } : {}),
        };
        yield { phone: r.phone, index, contact };
      }
    }
    const counts = await importContacts(rows(), {
      client: d.client,
      ledger,
      segmentId: segment.id,
      owner: `${job.id}#${job.attemptsStarted}`,
    });
    await d.queues.campaigns.add(
      `${info.job}/${info.file} follow-up ${attempt}`,
      {
        job: info.job,
        sha256: info.sha256,
        gen: info.gen,
        original: info.file,
        segmentId: segment.id,
        attempt,
        parentId: info.id,
        notBefore: stored.lastChangeAt + def.followUps.spacingMinutes * 60_000,
      },
      { jobId: `campaign-${job.data.job}-${info.sha256.slice(0, 16)}-${info.gen}-${attempt}` },
    );
    d.logger.info({ campaign: info.id, attempt, contacts: again.length }, "follow-up requested");
    return { contacts: again.length, created: counts.created, segmentId: segment.id };
  };
}
