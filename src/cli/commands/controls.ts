import { Command } from "commander";
import { type CancelOutcome, cancelCampaigns } from "../../pipeline/campaign/cancel-campaign.ts";
import { createControls } from "../../pipeline/campaign/controls.ts";
import { campaignRequestsMatching } from "../../queue/campaign-requests.ts";
import { closeQueues, createQueues } from "../../queue/queues.ts";
import { CliError } from "../cli-error.ts";
import { withRedis } from "../with-redis.ts";

const NO_PAUSE =
  "the service has no operation to pause or stop a campaign once it exists: its calls go on as scheduled";

/** `vcw pause JOB`, `vcw resume JOB`: no contact sent and no campaign created while paused. */
export function pauseCommands(): Command[] {
  const pause = new Command("pause")
    .description(
      "Pause a job: its files are still admitted and validated, but no contact is sent and no campaign created",
    )
    .argument("<job>", "job name")
    .action((job: string) =>
      withRedis(async ({ redis, keys }) => {
        const changed = await createControls(redis, keys).pause(job);
        console.log(changed ? `job ${job} paused` : `job ${job} was already paused`);
        console.log(`campaigns already created are not affected: ${NO_PAUSE}`);
      }),
    );
  const resume = new Command("resume")
    .description("Resume a paused job: its waiting files are imported and their campaigns created")
    .argument("<job>", "job name")
    .action((job: string) =>
      withRedis(async ({ redis, keys }) => {
        const changed = await createControls(redis, keys).resume(job);
        console.log(changed ? `job ${job} resumed` : `job ${job} was not paused`);
      }),
    );
  return [pause, resume];
}

/** `vcw cancel`: a campaign asked for but not yet created is never created; one that may exist is said so. */
export function cancelCommand(): Command {
  return new Command("cancel")
    .description(
      "Cancel campaigns not yet created: by campaign job id, or every one of a file (its name as dropped). Exits 1 when a campaign exists or may exist: the service can't stop it",
    )
    .argument("<what>", "a campaign job id (vcw status lists them) or a file name")
    .action((what: string) =>
      withRedis(async ({ redis, keys }) => {
        const queues = createQueues({ connection: redis, keys });
        try {
          const outcomes = await cancelCampaigns(redis, keys, await campaignRequestsMatching(queues, what));
          if (outcomes.length === 0)
            throw new CliError(`no campaign asked for matches "${what}" (vcw status lists them)`, 1);
          for (const o of outcomes) console.log(cancelLine(o));
          if (outcomes.some((o) => o.kind !== "canceled"))
            throw new CliError(`not every campaign of ${what} could be canceled: ${NO_PAUSE}`, 1);
        } finally {
          await closeQueues(queues);
        }
      }),
    );
}

/** One outcome as the operator reads it. */
export function cancelLine(o: CancelOutcome): string {
  const which = `${o.name} (${o.request})`;
  switch (o.kind) {
    case "canceled":
      return `canceled: ${which}${o.already ? " (already canceled)" : ""}: no campaign was or will be created`;
    case "exists":
      return `exists: ${which} is campaign ${o.id}: it was created before the cancel; the service can't stop it`;
    case "may-exist":
      return `may exist: ${which}: ${o.why === "create-in-flight" ? "its create is being sent now" : "its create was sent and the answer lost"}; the service can't stop it. vcw keeps looking it up and tracks it if it exists; if it doesn't, it won't be created`;
  }
}
