import { type CreateCampaignPort, createCampaign } from "../pipeline/campaign/create-use-case.ts";
import { followUpOf } from "../pipeline/campaign/follow-up.ts";
import type { Intent } from "../pipeline/campaign/lifecycle.ts";
import { pollUseCase } from "../pipeline/campaign/poll-use-case.ts";
import { handBackOf } from "../pipeline/campaign/stopping/poll-stops.ts";
import { importDroppedFile } from "../pipeline/files/import-dropped-file.ts";
import { campaignRecords } from "../pipeline/resources/campaign-records.ts";
import type { CreateCampaign } from "./campaign-processor.ts";
import { createSink } from "./create-sink.ts";
import type { SinkFor } from "./delivery-processor.ts";
import { NotDefinedHereError } from "./errors.ts";
import type { FollowUpWork } from "./follow-up-processor.ts";
import type { ImportFile } from "./import-processor.ts";
import { applyIntents } from "./intents.ts";
import { processLateLook } from "./late-look.ts";
import { followPoll } from "./poll-follow.ts";
import type { PollAndFollow } from "./poll-processor.ts";
import { processStartCheck, scheduleStartCheck } from "./start-check.ts";
import { jobOf, type WorkDeps } from "./work-deps.ts";

/** Each queue's work, bound once: what its processor is handed (daemon/daemon.ts). */
export interface UseCases {
  importFile: ImportFile;
  createCampaign: CreateCampaign;
  pollAndFollow: PollAndFollow;
  followUps: FollowUpWork;
  sinkFor: SinkFor;
}

/**
 * Every use case bound to its deps once, by the composition root: each takes its own port of
 * WorkDeps here, so no processor holds the whole of it. The definition a job names is looked up
 * here too (jobOf: a job this process lacks is handed back by the worker).
 */
export function bindUseCases(d: WorkDeps): UseCases {
  const request = (intents: readonly Intent[]) => applyIntents(intents, d);
  return {
    importFile: bindImportFile(d, request),
    createCampaign: bindCreateCampaign(d),
    pollAndFollow: bindPollAndFollow(d, request),
    followUps: {
      followUp: async (data, owner) => {
        const outcome = await followUpOf(jobOf(d, data.job), data.campaignId, owner, d);
        if (outcome.kind === "requested") await request([outcome.intent]);
        return outcome;
      },
      resume: async (data) => {
        const outcome = await handBackOf(d, jobOf(d, data.job), data.campaignId);
        if (outcome.kind === "resume") await request([{ kind: "create-campaign", request: outcome.request }]);
        return outcome;
      },
      startCheck: (job, token) => processStartCheck(d, job, token),
      lateLook: (data) => processLateLook(d, data),
    },
    sinkFor: bindSinkFor(d),
  };
}

type Request = (intents: readonly Intent[]) => Promise<void>;

function bindImportFile(d: WorkDeps, request: Request): ImportFile {
  const deps = { ...d, request };
  return (file, attempt, jobId) =>
    importDroppedFile(jobOf(d, file.job), file, attempt, { ...deps, logger: d.logger.child({ jobId }) });
}

function bindCreateCampaign(d: WorkDeps): CreateCampaign {
  const port: CreateCampaignPort = {
    ...d,
    records: (def, key, now, variant, dialer) => campaignRecords(d, def, key, now, variant, dialer),
    rememberTrace: (id) => d.traces.remember(id),
    scheduleStartCheck: (info, contacts) => scheduleStartCheck(d, info, contacts),
  };
  return (data, attempt) => createCampaign(port, jobOf(d, data.job), data, attempt);
}

function bindPollAndFollow(d: WorkDeps, request: Request): PollAndFollow {
  const port = { ...d, request };
  return async (data) => {
    const def = jobOf(d, data.job);
    const polled = await pollUseCase(port, def, data);
    await followPoll(d, def, data.campaignId, polled);
    return polled.poll;
  };
}

function bindSinkFor(d: WorkDeps): SinkFor {
  return (name) => {
    const def = d.sinks()[name];
    if (!def) throw new NotDefinedHereError("sink", name);
    return async (payload, idempotencyKey) => {
      const campaignId = "campaign" in payload ? payload.campaign.id : undefined;
      const sink = createSink(name, def, { logger: d.logger.child({ sink: name }) });
      await sink.deliver({
        idempotencyKey,
        payload,
        ...(campaignId ? { records: () => d.store.allRecords(campaignId) } : {}),
      });
    };
  };
}
