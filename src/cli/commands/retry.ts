import { Command } from "commander";
import { RETRYABLE, type Retryable } from "../../queue/operator/action.ts";
import { CliError } from "../cli-error.ts";
import { ACTION_JSON_HELP } from "./controls.ts";
import { runOperatorAction } from "./run-operator-action.ts";

/** Failed jobs stay in their failed set until an operator sends them back to the queue. */
export function retryCommand(): Command {
  return new Command("retry")
    .description(
      "Send failed jobs back to their queue: one by id, or all (of a sink or a job). imports: rejected files are dropped into their inbox again",
    )
    .argument("<queue>", `one of ${RETRYABLE.join(", ")}`)
    .argument("[id]", "one failed job's id (vcw status, the dashboard and Bull Board show them)")
    .option("--sink <name>", "only the failed deliveries to this sink")
    .option("--job <name>", "only the failed jobs of this job")
    .option("--json", ACTION_JSON_HELP)
    .action((name: string, id: string | undefined, o: { sink?: string; job?: string; json?: boolean }) => {
      if (!(RETRYABLE as readonly string[]).includes(name))
        throw new CliError(`no queue "${name}"; retryable: ${RETRYABLE.join(", ")}`);
      const queue = name as Retryable;
      return runOperatorAction(
        id
          ? { kind: "retry", queue, id }
          : {
              kind: "retry-all",
              queue,
              ...(o.sink ? { sink: o.sink } : {}),
              ...(o.job ? { job: o.job } : {}),
            },
        { json: o.json },
      );
    });
}
