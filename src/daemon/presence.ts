import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import {
  type DaemonPresence,
  PRESENCE_EVERY_MS,
  type PresenceStore,
} from "../pipeline/stores/daemon-presence.ts";

/**
 * Announces this process (its role, surface and jobs) in the presence store, refreshed every 10 s;
 * its entry goes when it stops.
 */
export async function announce(
  presence: Pick<PresenceStore, "write" | "remove">,
  me: Omit<DaemonPresence, "host" | "pid" | "startedAt" | "seenAt">,
): Promise<{ stop(): Promise<void> }> {
  const id = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  const startedAt = new Date().toISOString();
  const write = () => presence.write(id, { ...me, host: hostname(), pid: process.pid, startedAt });
  await write();
  const timer = setInterval(() => void write().catch(() => undefined), PRESENCE_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await presence.remove(id).catch(() => undefined);
    },
  };
}
