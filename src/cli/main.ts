import { Argument, Command, CommanderError } from "commander";
import { RequestValidationError, VcwError } from "../api/errors/index.ts";
import { CliError } from "./cli-error.ts";
import { bashCompletion, zshCompletion } from "./completion.ts";
import { packageVersion } from "./version.ts";

/**
 * Every command, in the order help lists them, each module imported only when it is needed: a
 * command loads what it uses (`vcw --version` no BullMQ, fastify or charts; `vcw validate` no Redis).
 */
const COMMANDS: readonly (readonly [string, () => Promise<Command>])[] = [
  ["start", () => import("./commands/start.ts").then((m) => m.startCommand())],
  ["demo", () => import("./commands/demo.ts").then((m) => m.demoCommand())],
  ["worker", () => import("./commands/start.ts").then((m) => m.workerCommand())],
  ["import", () => import("./commands/import.ts").then((m) => m.importCommand())],
  ["status", () => import("./commands/status.ts").then((m) => m.statusCommand())],
  ["report", () => import("./commands/report.ts").then((m) => m.reportCommand())],
  ["campaigns", () => import("./commands/campaigns.ts").then((m) => m.campaignsCommand())],
  ["retry", () => import("./commands/retry.ts").then((m) => m.retryCommand())],
  ["suppress", () => import("./commands/suppress.ts").then((m) => m.suppressCommand())],
  ["audit", () => import("./commands/audit.ts").then((m) => m.auditCommand())],
  ["consent", () => import("./commands/consent.ts").then((m) => m.consentCommand())],
  ["contact", () => import("./commands/contact.ts").then((m) => m.contactCommand())],
  ["pause", () => import("./commands/controls.ts").then((m) => m.pauseCommands()[0]!)],
  ["resume", () => import("./commands/controls.ts").then((m) => m.pauseCommands()[1]!)],
  ["cancel", () => import("./commands/controls.ts").then((m) => m.cancelCommand())],
  ["stop", () => import("./commands/stop.ts").then((m) => m.stopCommand())],
  ["experiment", () => import("./commands/experiment.ts").then((m) => m.experimentCommand())],
  ["simulator", () => import("./commands/simulator.ts").then((m) => m.simulatorCommand())],
  ["api", () => import("./commands/api.ts").then((m) => m.apiCommand())],
  ["validate", () => import("./commands/validate.ts").then((m) => m.validateCommand())],
  ["jobs", () => import("./commands/jobs.ts").then((m) => m.jobsCommand())],
  ["apply", () => import("./commands/apply.ts").then((m) => m.applyCommand())],
  ["call", () => import("./commands/call.ts").then((m) => m.callCommand())],
  ["preview", () => import("./commands/preview.ts").then((m) => m.previewCommand())],
];

const NAMES = new Set([...COMMANDS.map(([name]) => name), "completion"]);

/**
 * Which commands `args` (argv less node and the script) needs: the one it names; none for a bare
 * `--version`; all of them for help, completion, no command or an unknown one (commander lists
 * them, or suggests the nearest).
 */
export function commandsNeeded(args: readonly string[]): "all" | string[] {
  const words = args.filter((a) => !a.startsWith("-"));
  const named = words[0] === "help" ? words[1] : words[0];
  if (named !== undefined && named !== "completion" && NAMES.has(named)) return [named];
  if (words.length === 0 && !args.some((a) => a === "-h" || a === "--help")) {
    if (args.some((a) => a === "-V" || a === "--version")) return [];
  }
  return "all";
}

export async function buildProgram(args: readonly string[] = ["--help"]): Promise<Command> {
  const program = new Command("vcw")
    .description("voice-campaign-worker: campaign orchestration for the Voice Assistant Calling Service")
    .version(packageVersion(), "-V, --version", "print vcw's version");
  const needed = commandsNeeded(args);
  const chosen = COMMANDS.filter(([name]) => needed === "all" || needed.includes(name));
  for (const command of await Promise.all(chosen.map(([, load]) => load()))) program.addCommand(command);
  if (needed === "all") program.addCommand(completionCommand(program));
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
    await (await buildProgram(argv.slice(2))).parseAsync(argv);
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
