import { type Client, createClient } from "../api/client.ts";

/**
 * The service's client for a command's read-only checks (`vcw jobs check`, `vcw preview`), or why
 * there is none: the commands still work offline, and say what they could not check.
 */
export function serviceClient(env: NodeJS.ProcessEnv): Client | string {
  if (!env.VCS_BASE_URL) return "VCS_BASE_URL is not set (offline)";
  if (!env.VCS_API_KEY) return "VCS_API_KEY is not set";
  try {
    return createClient({
      baseUrl: env.VCS_BASE_URL,
      apiKey: env.VCS_API_KEY,
      timeoutMs: 5_000,
      maxRetries: 0,
    });
  } catch (error) {
    return (error as Error).message;
  }
}
