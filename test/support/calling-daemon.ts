import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import { afterEach, beforeAll } from "vitest";
import type { Settings } from "../../src/config/settings.ts";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import type { SimulatorOptions } from "../../src/simulator/server.ts";
import { type CallingJob, callingJob, type JobYaml } from "./calling-job.ts";
import { quietLogger } from "./daemon.ts";
import { validAssistant, validDialer } from "./fixtures.ts";
import { useSimulator } from "./simulator.ts";

/**
 * The setup daemon suites share: a simulator with an assistant (named `Ava <hex>`) and a dialer made
 * before the tests, daemons started on it (watching and working) and closed after each test, then
 * whatever the suite closes after them (`afterDaemons`).
 */
export function useCallingDaemon(simulator: Partial<SimulatorOptions> = {}) {
  const t = useSimulator(simulator);
  const made = { assistant: "", assistantId: "", dialerId: "" };
  const daemons: Daemon[] = [];
  const closers: (() => unknown)[] = [];

  beforeAll(async () => {
    made.assistant = `Ava ${randomBytes(3).toString("hex")}`;
    made.assistantId = (await t.client.assistants.create(validAssistant({ name: made.assistant }))).id!;
    made.dialerId = (await t.client.dialers.create(validDialer())).id!;
  });
  afterEach(async () => {
    for (const d of daemons.splice(0)) await d.close();
    for (const close of closers) await close();
  });

  return {
    t,
    /** The assistant's name and id, and the dialer's id (set once the suite started). */
    made,
    /** Runs after each test once its daemons are closed (a proxy, a receiver...). */
    afterDaemons: (close: () => unknown) => void closers.push(close),
    /** A home with one calling job on this suite's assistant (by name, or by id: byId) and dialer. */
    callingJob: ({
      byId,
      ...o
    }: { byId?: boolean } & Partial<Omit<JobYaml, "name" | "inbox">> = {}): CallingJob =>
      callingJob({
        assistant: byId ? { id: made.assistantId } : { name: made.assistant },
        dialerId: made.dialerId,
        ...o,
      }),
    /** A daemon that watches and works, ready; closed after the test. */
    async start(settings: Settings, logger: Logger = quietLogger()): Promise<Daemon> {
      const daemon = await startDaemon({ settings, logger, watch: true, work: true });
      daemons.push(daemon);
      await daemon.ready;
      return daemon;
    },
  };
}
