import { readFile } from "node:fs/promises";
import { Command } from "commander";
import { createClient } from "../../api/client.ts";
import { type OperationName, operationNames, operations } from "../../api/operations.ts";
import { logLevelOf } from "../../config/log-level.ts";
import type { ServiceLog } from "../../daemon/calling-service.ts";
import { CliError } from "../cli-error.ts";

/** What it found, on stderr as other commands log it: warnings, and which service at LOG_LEVEL info. */
function stderrLog(): ServiceLog {
  const verbose = ["info", "debug", "trace"].includes(logLevelOf(process.env, "warn"));
  return {
    info: (_facts, message) => {
      if (verbose) console.error(`vcw: ${message}`);
    },
    warn: (_facts, message) => console.error(`vcw: ${message}`),
  };
}

/**
 * The service as every command finds it (daemon/calling-service.ts), loaded only when a request is
 * sent: `vcw api --help` loads none of the daemon's packages.
 */
async function withService<T>(run: (service: { url: string; apiKey: string }) => Promise<T>): Promise<T> {
  const { callingService } = await import("../../daemon/calling-service.ts");
  const { resolveSettings } = await import("../../config/settings.ts");
  const service = await callingService(resolveSettings(), stderrLog(), "join-or-start");
  try {
    return await run(service);
  } finally {
    await service.close();
  }
}

async function readData(data: string): Promise<unknown> {
  const text = data.startsWith("@")
    ? await readFile(data.slice(1), "utf8").catch((e: Error) => {
        throw new CliError(`Cannot read ${data.slice(1)}: ${e.message}`);
      })
    : data;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new CliError(
      `--data is not valid JSON${data.startsWith("@") ? ` (${data.slice(1)})` : ""}: ${(e as Error).message}`,
    );
  }
}

export function apiCommand(): Command {
  return new Command("api")
    .description("Call one operation of the calling service and print the JSON result")
    .argument("<operation>", `resource.operation, one of: ${operationNames.join(", ")}`)
    .option("--id <id>", "the ?id= parameter of the operation")
    .option("--data <json>", "request body as JSON, or @file.json")
    .option(
      "--base-url <url>",
      "base URL ending in /api/v1 (default: VCS_BASE_URL, else the embedded simulator, joined when one runs under this home)",
    )
    .option(
      "--timeout-ms <ms>",
      "per-attempt timeout, from sending to the last byte of the response (a read's retry after a timeout waits twice as long, up to 4x)",
      (v) => Number(v),
    )
    .addHelpText(
      "after",
      "\nThe API key is read from VCS_API_KEY; the embedded simulator's is the home's own (.vcw/simulator.key) when it is not set.",
    )
    .action(async (name: string, o) => {
      if (!(name in operations)) {
        throw new CliError(`Unknown operation "${name}". Operations: ${operationNames.join(", ")}`);
      }
      const op = operations[name as OperationName];
      if (op.id && !o.id) throw new CliError(`${name} needs --id (the ${op.id} identifier)`);
      if (op.request && !o.data) throw new CliError(`${name} needs --data with a JSON body`);
      const body = o.data === undefined ? undefined : await readData(o.data);
      const timeout = o.timeoutMs ? { timeoutMs: o.timeoutMs } : {};
      const result = o.baseUrl
        ? await createClient({ baseUrl: o.baseUrl, ...timeout }).request(name as OperationName, {
            id: o.id,
            body,
          })
        : await withService((service) =>
            createClient({ baseUrl: service.url, apiKey: service.apiKey, ...timeout }).request(
              name as OperationName,
              { id: o.id, body },
            ),
          );
      process.stdout.write(`${JSON.stringify(result ?? null, null, 2)}\n`);
    });
}
