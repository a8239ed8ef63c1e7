import { once } from "node:events";
import { createServer } from "node:net";
import { formatAddress, type ListenAddress } from "../lib/listen-address.ts";
import { StartupError } from "./errors.ts";

/**
 * Refuses, before anything starts, an HTTP address another process holds (a second `vcw start`):
 * listens on it and lets go at once. Port 0 (any free port) is always free.
 */
export async function ensureAddressFree(address: ListenAddress): Promise<void> {
  if (address.port === 0) return;
  const probe = createServer();
  probe.listen({ host: address.host, port: address.port, exclusive: true });
  try {
    await once(probe, "listening");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") return; // the server says why, later
    throw new StartupError(
      `VCW_HTTP_ADDR ${formatAddress(address)} is taken (another vcw on this machine?): give each process its own VCW_HTTP_ADDR (port 0 picks a free one), or VCW_HTTP_ADDR=off. Nothing was started`,
    );
  }
  probe.close();
  await once(probe, "close");
}
