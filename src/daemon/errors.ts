import { VcwError } from "../lib/vcw-error.ts";

/** A mistake in the configuration found before the daemon starts anything: it refuses to start. */
export class StartupError extends VcwError {
  override name = "StartupError";
}
