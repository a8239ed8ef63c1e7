import { type Client, createClient } from "../api/client.ts";
import { resolveSettings } from "../config/settings.ts";
import { callingService, noEmbeddedSimulator } from "../daemon/calling-service.ts";
import { createLogger } from "../daemon/logger.ts";

/**
 * The service's client for a command's read-only checks (`vcw jobs check`, `vcw preview`), or why
 * there is none: the commands still work offline, and say what they could not check. The service
 * is found the one way every command finds it: VCS_BASE_URL, else the embedded simulator a running
 * vcw has under this home (joined, never one started for a check).
 */
export async function serviceClient(env: NodeJS.ProcessEnv = process.env): Promise<Client | string> {
  try {
    const settings = resolveSettings(env);
    const service = await callingService(settings, createLogger({ level: "warn" }), "join");
    if (!service) return `${noEmbeddedSimulator(settings)} (offline)`;
    return createClient({ baseUrl: service.url, apiKey: service.apiKey, timeoutMs: 5_000, maxRetries: 0 });
  } catch (error) {
    return (error as Error).message;
  }
}
