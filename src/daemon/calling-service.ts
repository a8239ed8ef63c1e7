import { type Settings, simulatorStateFile } from "../config/settings.ts";
import type { StartHold } from "../pipeline/campaign/start-reason.ts";
import { embeddedKey, embeddedKeyFileOf, existingEmbeddedKey } from "./embedded-key.ts";
import { embeddedSimulator } from "./embedded-simulator.ts";

/** The calling service a process talks to, and how it stops using it. */
export interface CallingService {
  url: string;
  apiKey: string;
  /** Where it came from, fit to print. */
  source: string;
  /**
   * Creates carry an `Idempotency-Key` it honours, so nothing waits a settle time: decided here
   * alone (`callingService`), on for vcw's own simulator unless VCW_IDEMPOTENCY_KEYS=off.
   */
  idempotencyKeys: boolean;
  close(): Promise<void>;
}

/**
 * What a process may do when VCS_BASE_URL is not set: start the home's embedded simulator when
 * none runs (the daemon, `vcw import`, `vcw apply`, `vcw api`), or only join one that runs (a
 * worker, `vcw jobs check`).
 */
export type EmbeddedUse = "join-or-start" | "join";

type ServiceSettings = Pick<Settings, "baseUrl" | "apiKey" | "home" | "simTimeScale" | "idempotencyKeys">;

/** Where it says what it found: a pino logger, or a command's stderr (no pino for `vcw api`). */
export interface ServiceLog {
  info(facts: object, message: string): void;
  warn(facts: object, message: string): void;
}

/**
 * The one way every process finds the calling service: VCS_BASE_URL with VCS_API_KEY; else the
 * embedded simulator of the home, joined when another vcw runs it (its record trusted, our key
 * answered), else started here when `use` allows. Undefined: none runs and none may be started.
 */
export async function callingService(
  s: ServiceSettings,
  logger: ServiceLog,
  use: "join-or-start",
): Promise<CallingService>;
export async function callingService(
  s: ServiceSettings,
  logger: ServiceLog,
  use: EmbeddedUse,
): Promise<CallingService | undefined>;
export async function callingService(
  s: ServiceSettings,
  logger: ServiceLog,
  use: EmbeddedUse,
): Promise<CallingService | undefined> {
  if (s.baseUrl.value) {
    if (!s.apiKey.value)
      throw new Error("VCS_BASE_URL is set and VCS_API_KEY is not: set the service's API key");
    const idempotencyKeys = keysExpected(s);
    return {
      url: s.baseUrl.value,
      apiKey: s.apiKey.value,
      source: s.baseUrl.source,
      idempotencyKeys,
      close: async () => {},
    };
  }
  const home = s.home.value;
  // A process that only joins makes nothing under the home, not even a key; without one, a running
  // simulator refuses it, and says to use the VCS_API_KEY it was started with.
  const apiKey =
    use === "join"
      ? ((await existingEmbeddedKey(home, s.apiKey.value)) ?? "")
      : await embeddedKey(home, s.apiKey.value);
  const stateFile = simulatorStateFile(s);
  const sim = await embeddedSimulator(
    home,
    {
      apiKey,
      stateFile,
      demoRecords: true,
      timeScale: s.simTimeScale.value,
      // vcw's own simulator honours keys: on unless turned off, so its campaigns need no settle wait.
      idempotencyKeys: keysExpected(s),
    },
    use,
  );
  if (!sim) return undefined;
  // A joined simulator's own word (its record) decides: keys it ignores would not make a re-send safe.
  const idempotencyKeys = sim.idempotencyKeys && keysExpected(s);
  const keyFrom = s.apiKey.value ? "VCS_API_KEY" : embeddedKeyFileOf(home);
  if (sim.joinedPid !== undefined) {
    logger.info(
      { url: sim.url, pid: sim.joinedPid, stateFile, key: keyFrom },
      "embedded simulator joined: another vcw runs it under this home (it stops when that process stops)",
    );
    const source = `embedded simulator of pid ${sim.joinedPid}`;
    return { url: sim.url, apiKey, source, idempotencyKeys, close: sim.close };
  }
  // A record left by a process that died was replaced: said, since something crashed.
  if (sim.replaced)
    logger.warn({ url: sim.url, stateFile, key: keyFrom }, `embedded simulator started: ${sim.replaced}`);
  else logger.info({ url: sim.url, stateFile, key: keyFrom }, "embedded simulator started");
  return { url: sim.url, apiKey, source: "embedded simulator", idempotencyKeys, close: sim.close };
}

/**
 * Whether creates carry keys, before any service is found: asked for (VCW_IDEMPOTENCY_KEYS), else
 * on for vcw's own simulator and off for a service at VCS_BASE_URL. A joined simulator that does
 * not honour them still turns them off (`callingService`).
 */
export const keysExpected = (s: Pick<Settings, "baseUrl" | "idempotencyKeys">) =>
  s.baseUrl.value ? s.idempotencyKeys.value === true : s.idempotencyKeys.value !== false;

/**
 * What holds a campaign's start after its create with these settings: the settle time, none when
 * creates carry keys (a re-send can't make a second record), and the start lead. The daemon passes
 * its service's word on keys; `vcw preview`, finding no service, `keysExpected`.
 */
export const startHoldOf = (
  s: Pick<Settings, "settleMs" | "startLeadMs">,
  keys: boolean,
): Required<StartHold> => ({
  settleMs: keys ? 0 : s.settleMs.value,
  startLeadMs: s.startLeadMs.value,
});

/** Why a process that may only join has no service: fit for an error or an "offline" note. */
export const noEmbeddedSimulator = (s: Pick<Settings, "home">) =>
  `VCS_BASE_URL is not set and no embedded simulator runs under ${s.home.value} (\`vcw start\` runs one)`;
