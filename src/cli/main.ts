import { Argument, Command, CommanderError } from "commander";
import { RequestValidationError, VcwError } from "../api/errors/index.ts";
import { CliError } from "./cli-error.ts";
import { apiCommand } from "./commands/api.ts";
import { applyCommand } from "./commands/apply.ts";
import { callCommand } from "./commands/call.ts";
import { campaignsCommand } from "./commands/campaigns.ts";
import { contactCommand } from "./commands/contact.ts";
import { cancelCommand, pauseCommands } from "./commands/controls.ts";
import { demoCommand } from "./commands/demo.ts";
import { importCommand } from "./commands/import.ts";
import { jobsCommand } from "./commands/jobs.ts";
import { previewCommand } from "./commands/preview.ts";
import { reportCommand } from "./commands/report.ts";
import { retryCommand } from "./commands/retry.ts";
import { simulatorCommand } from "./commands/simulator.ts";
import { startCommand, workerCommand } from "./commands/start.ts";
import { statusCommand } from "./commands/status.ts";
import { stopCommand } from "./commands/stop.ts";
import { suppressCommand } from "./commands/suppress.ts";
import { validateCommand } from "./commands/validate.ts";
import { bashCompletion, zshCompletion } from "./completion.ts";
import { packageVersion } from "./version.ts";

export function buildProgram(): Command {
  const [pause, resume] = pauseCommands();
  const program = new Command("vcw")
    .description("voice-campaign-worker: campaign orchestration for the Voice Assistant Calling Service")
    .version(packageVersion(), "-V, --version", "print vcw's version")
    .addCommand(startCommand())
    .addCommand(demoCommand())
    .addCommand(workerCommand())
    .addCommand(importCommand())
    .addCommand(statusCommand())
    .addCommand(reportCommand())
    .addCommand(campaignsCommand())
    .addCommand(retryCommand())
    .addCommand(suppressCommand())
    .addCommand(contactCommand())
    .addCommand(pause!)
    .addCommand(resume!)
    .addCommand(cancelCommand())
    .addCommand(stopCommand())
    .addCommand(simulatorCommand())
    .addCommand(apiCommand())
    .addCommand(validateCommand())
    .addCommand(jobsCommand())
    .addCommand(applyCommand())
    .addCommand(callCommand())
    .addCommand(previewCommand());
  program.addCommand(completionCommand(program));
  withExitOverride(program);
  return program;
}

function completionCommand(program: Command): Command {
  return new Command("completion")
    .description("Print a shell completion script: source <(vcw completion bash), or zsh")
    .addArgument(new Argument("<shell>", "bash or zsh").choices(["bash", "zsh"]))
    .action((shell: "bash" | "zsh") => {
      process.stdout.write(shell === "bash" ? bashCompletion(program) : zshCompletion(program));
    });
}

/** commander's errors thrown, not exited on, in every command: main() gives them their status. */
function withExitOverride(command: Command): void {
  command.exitOverride();
  for (const sub of command.commands) withExitOverride(sub);
}

/** What commander stops on: help and --version exit 0; every other is a usage error, status 2. */
const NOT_USAGE_ERRORS = new Set(["commander.helpDisplayed", "commander.help", "commander.version"]);

/** Runs the CLI; errors become one clear line on stderr and a non-zero exit status. */
export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = NOT_USAGE_ERRORS.has(error.code) ? error.exitCode : 2;
      return;
    }
    const exitCode =
      error instanceof CliError ? error.exitCode : error instanceof RequestValidationError ? 2 : 1;
    const message = error instanceof VcwError || error instanceof Error ? error.message : String(error);
    process.stderr.write(`vcw: ${message}\n`);
    process.exitCode = exitCode;
  }
}
