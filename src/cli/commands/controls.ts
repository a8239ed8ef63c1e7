import { Command } from "commander";
import { createControls } from "../../pipeline/campaign/controls.ts";
import { campaignKey } from "../../pipeline/campaign/lifecycle.ts";
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

/** `vcw cancel`: a campaign asked for but not yet created is never created. */
export function cancelCommand(): Command {
  return new Command("cancel")
    .description(
      "Cancel campaigns not yet created: by campaign job id, or every one of a file (its name as dropped)",
    )
    .argument("<what>", "a campaign job id (vcw status lists them) or a file name")
    .action((what: string) =>
      withRedis(async ({ redis, keys }) => {
        const queues = createQueues({ connection: redis, keys });
        const controls = createControls(redis, keys);
        try {
          const pending = await queues.campaigns.getJobs(["waiting", "delayed", "prioritized"]);
          const matching = pending.filter((j) => j.id === what || j.data.original === what);
          const done = (await queues.campaigns.getJobs(["completed", "active"])).filter(
            (j) => j.id === what || j.data.original === what,
          );
          if (matching.length === 0) {
            throw new CliError(
              done.length > 0
                ? `the campaign of ${what} already exists: ${NO_PAUSE}`
                : `no campaign waiting to be created matches "${what}" (vcw status lists them)`,
              1,
            );
          }
          for (const job of matching) {
            await controls.cancel(campaignKey(job.data));
            await job.remove().catch(() => undefined); // picked up meanwhile: the mark stops it
            console.log(`canceled: ${job.data.name ?? job.name} (${job.id})`);
          }
        } finally {
          await closeQueues(queues);
        }
      }),
    );
}
