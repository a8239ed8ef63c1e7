/** Where a server listens: a host (name or IP) and a port (0: any free port). */
export interface ListenAddress {
  host: string;
  port: number;
}

/**
 * `host:port`, `[v6]:port`, or a bare port (on 127.0.0.1). `off` (or `none`, `false`) gives
 * undefined: no server. Throws naming the variable on anything else.
 */
export function parseListenAddress(text: string, name = "VCW_HTTP_ADDR"): ListenAddress | undefined {
  const t = text.trim();
  if (["off", "none", "false", "no"].includes(t.toLowerCase())) return undefined;
  const bad = () =>
    new Error(
      `${name} must be host:port (such as 127.0.0.1:9400 or 0.0.0.0:9400), a port, or off; not "${t}"`,
    );
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]]+)):(\d{1,5})$/.exec(t) ?? /^()()(\d{1,5})$/.exec(t);
  if (!m) throw bad();
  const port = Number(m[3]);
  if (port > 65_535) throw bad();
  return { host: m[1] || m[2] || "127.0.0.1", port };
}

/** Whether only this machine can reach `host`: 127.0.0.0/8, ::1, localhost. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** `host:port`, with brackets around an IPv6 host. */
export const formatAddress = (a: ListenAddress) =>
  `${a.host.includes(":") ? `[${a.host}]` : a.host}:${a.port}`;
