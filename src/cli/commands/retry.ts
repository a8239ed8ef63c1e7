import { Command } from "commander";
import { closeQueues, createQueues } from "../../queue/queues.ts";
import { CliError } from "../cli-error.ts";
import { withRedis } from "../with-redis.ts";

const RETRYABLE = ["deliveries", "campaigns", "polls", "followUps"] as const;

/** Failed jobs stay in their failed set until an operator sends them back to the queue. */
export function retryCommand(): Command {
  return new Command("retry")
    .description(
      "Send the failed jobs of a queue back to it (a rejected file is retried by dropping it again)",
    )
    .argument("<queue>", `one of ${RETRYABLE.join(", ")}`)
    .option("--json", "print one JSON object: the queue and how many jobs were sent back")
    .action(async (name: string, o: { json?: boolean }) => {
      if (!(RETRYABLE as readonly string[]).includes(name)) {
        throw new CliError(
          name === "imports"
            ? "a rejected file is retried by dropping it into its inbox again"
            : `no queue "${name}"; retryable: ${RETRYABLE.join(", ")}`,
        );
      }
      await withRedis(async ({ redis, keys }) => {
        const queues = createQueues({ connection: redis, keys });
        try {
          const queue = queues[name as (typeof RETRYABLE)[number]];
          const failed = await queue.getFailedCount();
          await queue.retryJobs({ state: "failed" });
          if (o.json) process.stdout.write(`${JSON.stringify({ queue: name, retried: failed })}\n`);
          else console.log(`${failed} failed ${name} job(s) sent back to the queue`);
        } finally {
          await closeQueues(queues);
        }
      });
    });
}
