import { TelemetryConfigError } from "../telemetry/errors.ts";
import { startTracing, stopTracing } from "../telemetry/tracing.ts";
import { packageVersion } from "./version.ts";

// `vcw ... | head`: stop quietly when the reader of our output goes away.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

// Traces first (OTEL_TRACES_EXPORTER), before the CLI and its libraries load; nothing is loaded when off.
try {
  await startTracing({
    version: packageVersion(),
    log: async () => (await import("../daemon/logger.ts")).createLogger(),
  });
} catch (error) {
  if (!(error instanceof TelemetryConfigError)) throw error;
  process.stderr.write(`vcw: ${error.message}\n`);
  process.exit(2);
}
const { main } = await import("./main.ts");
await main(process.argv);
// The command is done: a collector that is down gets the stop budget, then its request or its
// retry's timer must not keep the process (a daemon's stop stays under 5 s).
if (!(await stopTracing())) process.exit();
