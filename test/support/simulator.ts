import { afterAll, beforeAll } from "vitest";
import { type ClientOptions, createClient } from "../../src/api/index.ts";
import { type Simulator, type SimulatorOptions, startSimulator } from "../../src/simulator/server.ts";
import { API_KEY } from "./fixtures.ts";

/** Fast retries for tests: the behaviour is the same, the waits are shorter. */
export const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 20 };

export function testClient(sim: Pick<Simulator, "url">, options: ClientOptions = {}) {
  return createClient({ baseUrl: sim.url, apiKey: API_KEY, retry: FAST_RETRY, timeoutMs: 5_000, ...options });
}

/** A simulator for the tests of one file, started before them and closed after. */
export function useSimulator(options: Partial<SimulatorOptions> = {}) {
  const ref = {} as { sim: Simulator; client: ReturnType<typeof createClient> };
  beforeAll(async () => {
    ref.sim = await startSimulator({ apiKey: API_KEY, ...options });
    ref.client = testClient(ref.sim);
  });
  afterAll(async () => {
    await ref.sim?.close();
  });
  return ref;
}
