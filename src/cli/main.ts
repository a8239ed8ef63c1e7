import { Command, CommanderError } from "commander";
import { RequestValidationError, VcwError } from "../api/errors/index.ts";
import { CliError } from "./cli-error.ts";
import { apiCommand } from "./commands/api.ts";
import { applyCommand } from "./commands/apply.ts";
import { callCommand } from "./commands/call.ts";
import { contactCommand } from "./commands/contact.ts";
import { cancelCommand, pauseCommands } from "./commands/controls.ts";
import { demoCommand } from "./commands/demo.ts";
import { importCommand } from "./commands/import.ts";
import { jobsCommand } from "./commands/jobs.ts";
import { reportCommand } from "./commands/report.ts";
import { retryCommand } from "./commands/retry.ts";
import { simulatorCommand } from "./commands/simulator.ts";
import { startCommand, workerCommand } from "./commands/start.ts";
import { statusCommand } from "./commands/status.ts";
import { suppressCommand } from "./commands/suppress.ts";
import { validateCommand } from "./commands/validate.ts";

export function buildProgram(): Command {
  const [pause, resume] = pauseCommands();
  return new Command("vcw")
    .description("voice-campaign-worker: campaign orchestration for the Voice Assistant Calling Service")
    .exitOverride()
    .addCommand(startCommand())
    .addCommand(demoCommand())
    .addCommand(workerCommand())
    .addCommand(importCommand())
    .addCommand(statusCommand())
    .addCommand(reportCommand())
    .addCommand(retryCommand())
    .addCommand(suppressCommand())
    .addCommand(contactCommand())
    .addCommand(pause!)
    .addCommand(resume!)
    .addCommand(cancelCommand())
    .addCommand(simulatorCommand())
    .addCommand(apiCommand())
    .addCommand(validateCommand())
    .addCommand(jobsCommand())
    .addCommand(applyCommand())
    .addCommand(callCommand());
}

/** Runs the CLI; errors become one clear line on stderr and a non-zero exit status. */
export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode;
      return;
    }
    const exitCode =
      error instanceof CliError ? error.exitCode : error instanceof RequestValidationError ? 2 : 1;
    const message = error instanceof VcwError || error instanceof Error ? error.message : String(error);
    process.stderr.write(`vcw: ${message}\n`);
    process.exitCode = exitCode;
  }
}
