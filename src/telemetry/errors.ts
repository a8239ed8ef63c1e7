import { VcwError } from "../lib/vcw-error.ts";

/** An OTEL_* variable vcw can't honour: said at start, before anything runs (exit status 2). */
export class TelemetryConfigError extends VcwError {
  override name = "TelemetryConfigError";
}
