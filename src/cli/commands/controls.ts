import { Command } from "commander";
import { runOperatorAction } from "./run-operator-action.ts";

const JSON_HELP = "print one JSON object: the action, ok, count and message (exit status as without it)";

/** `vcw pause JOB`, `vcw resume JOB`: no contact sent and no campaign created while paused. */
export function pauseCommands(): Command[] {
  const pause = new Command("pause")
    .description(
      "Pause a job: its files are still admitted and validated, but no contact is sent and no campaign created",
    )
    .argument("<job>", "job name")
    .option("--json", JSON_HELP)
    .action((job: string, o: { json?: boolean }) => runOperatorAction({ kind: "pause", job }, o));
  const resume = new Command("resume")
    .description("Resume a paused job: its waiting files are imported and their campaigns created")
    .argument("<job>", "job name")
    .option("--json", JSON_HELP)
    .action((job: string, o: { json?: boolean }) => runOperatorAction({ kind: "resume", job }, o));
  return [pause, resume];
}

/** `vcw cancel`: a campaign asked for but not yet created is never created; one that may exist is said so. */
export function cancelCommand(): Command {
  return new Command("cancel")
    .description(
      "Cancel campaigns not yet created: by campaign job id, or every one of a file (its name as dropped). Exits 1 when a campaign exists or may exist: the service can't stop it",
    )
    .argument("<what>", "a campaign job id (vcw status lists them) or a file name")
    .option("--json", JSON_HELP)
    .action((what: string, o: { json?: boolean }) =>
      runOperatorAction({ kind: "cancel", campaign: what }, o),
    );
}

export { JSON_HELP as ACTION_JSON_HELP };
