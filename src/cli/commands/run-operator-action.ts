import { userInfo } from "node:os";
import { loadJobs } from "../../config/load-jobs.ts";
import { logLevelOf } from "../../config/log-level.ts";
import { createLogger } from "../../daemon/logger.ts";
import type { Action } from "../../queue/operator/action.ts";
import { createActionContext } from "../../queue/operator/action-context.ts";
import { runAction } from "../../queue/operator/run-action.ts";
import { closeQueues, createQueues } from "../../queue/queues.ts";
import { CliError } from "../cli-error.ts";
import { withRedis } from "../with-redis.ts";

/** Who acts from a terminal, for the log: the user the command runs as. */
const who = () => `cli ${userInfo().username}`;

/**
 * Runs an operator action as the dashboard does (the same code), prints its result (one JSON object
 * with `json`), and fails the command (exit 1) when it was refused.
 */
export function runOperatorAction(action: Action, o: { json?: boolean } = {}): Promise<void> {
  return withRedis(async ({ redis, keys, settings, stores }) => {
    const queues = createQueues({ connection: redis, keys });
    try {
      const { jobs } = await loadJobs(settings.jobsDir.value);
      const byName = new Map(jobs.map(({ job }) => [job.name, job]));
      const logger = createLogger({ level: logLevelOf(process.env, "warn") });
      const ctx = createActionContext({ stores, queues, jobs: () => byName, logger });
      const result = await runAction(ctx, action, who());
      if (o.json) process.stdout.write(`${JSON.stringify({ action, ...result })}\n`);
      if (!result.ok) throw new CliError(result.message, 1);
      if (!o.json) console.log(result.message);
    } finally {
      await closeQueues(queues);
    }
  });
}
