import { hostname, networkInterfaces } from "node:os";
import type { FastifyInstance } from "fastify";
import { formatAddress, isLoopback, type ListenAddress } from "../lib/listen-address.ts";

/** Probes answer whatever name an orchestrator uses: they tell nothing but "alive" and "ready". */
const ANY_HOST = new Set(["/livez", "/readyz"]);

/** The names a browser may use for this server: its address, its public URL's, the allowed list. */
export function allowedHosts(
  bound: ListenAddress,
  extra: { allowed: readonly string[]; publicUrl?: string | undefined },
): { exact: Set<string>; anyPort: Set<string> } {
  const exact = new Set<string>();
  const at = (host: string) => exact.add(formatAddress({ host, port: bound.port }).toLowerCase());
  at(bound.host);
  if (isLoopback(bound.host)) for (const h of ["localhost", "127.0.0.1", "::1"]) at(h);
  if (bound.host === "0.0.0.0" || bound.host === "::") {
    at(hostname());
    at("localhost");
    for (const list of Object.values(networkInterfaces()))
      for (const i of list ?? []) at(i.address.split("%")[0]!);
  }
  if (extra.publicUrl) {
    const url = new URL(extra.publicUrl);
    exact.add(url.host.toLowerCase());
  }
  const anyPort = new Set<string>();
  for (const h of extra.allowed) (/:\d+$/.test(h) && !h.endsWith("]") ? exact : anyPort).add(h);
  return { exact, anyPort };
}

/** The name part of a Host header: `a.b:80` -> `a.b`, `[::1]:80` -> `[::1]`. */
const nameOf = (host: string) => host.replace(/:\d+$/, "");

/**
 * Refuses a request whose Host is not a name of this server (421): a page whose domain was rebound
 * to 127.0.0.1 sends its own name, and so reads nothing here. `allowed` is asked per request: the
 * port is known only once the server listens.
 */
export function installHostCheck(
  app: FastifyInstance,
  allowed: () => { exact: Set<string>; anyPort: Set<string> },
): void {
  app.addHook("onRequest", async (req, reply) => {
    if (ANY_HOST.has(req.url.split("?")[0]!)) return;
    const host = (req.headers.host ?? "").toLowerCase();
    const names = allowed();
    if (names.exact.has(host) || names.anyPort.has(nameOf(host))) return;
    return reply.code(421).send({
      error: `Host "${host.slice(0, 100)}" is not this server's address: reach it by ${[...names.exact][0]}, or add the name to VCW_HTTP_ALLOWED_HOSTS`,
    });
  });
}
