import type { AddressInfo } from "node:net";
import { hostname } from "node:os";
import Fastify, { type FastifyRequest } from "fastify";
import type { Logger } from "pino";
import type { JobDefinition } from "../config/job-definition.ts";
import type { Settings } from "../config/settings.ts";
import { formatAddress, isLoopback, type ListenAddress } from "../lib/listen-address.ts";
import type { Stores } from "../pipeline/open-stores.ts";
import { type ActionStores, createActionContext } from "../queue/operator/action-context.ts";
import type { Queues } from "../queue/queues.ts";
import { installActions } from "./actions.ts";
import { installAuth } from "./auth.ts";
import { installBoard } from "./board.ts";
import { campaignIndex } from "./campaign-index.ts";
import { installCampaignsPage } from "./campaigns-page.ts";
import { installCsrf } from "./csrf.ts";
import { installDashboard } from "./dashboard.ts";
import { installFavicon } from "./favicon.ts";
import { installFrameGuard } from "./frame-guard.ts";
import { type HealthSources, installHealth } from "./health.ts";
import { allowedHosts, installHostCheck } from "./host-check.ts";
import { liveOverview } from "./live-overview.ts";
import type { Metrics } from "./metrics.ts";
import type { OverviewSources } from "./overview.ts";
import { installReportsPage } from "./reports-page.ts";

/** How the surface defends itself: from the VCW_HTTP_* settings and VCW_PUBLIC_URL. */
export interface HttpSecurity {
  sessionHours: number;
  maxStreams: number;
  allowedHosts: string[];
  trustProxy?: string | undefined;
  publicUrl?: string | undefined;
}

export const httpSecurityOf = (s: Settings): HttpSecurity => ({
  sessionHours: s.httpSessionHours.value,
  maxStreams: s.httpMaxStreams.value,
  allowedHosts: s.httpAllowedHosts.value,
  trustProxy: s.httpTrustProxy.value,
  publicUrl: s.publicUrl.value,
});

const DEFAULT_SECURITY: HttpSecurity = { sessionHours: 12, maxStreams: 50, allowedHosts: [] };

export interface HttpServerOptions {
  address: ListenAddress;
  token: string | undefined;
  health: HealthSources;
  overview: OverviewSources;
  queues: Queues;
  /** The stores it reads and acts on, opened once by the daemon (pipeline/open-stores.ts). */
  stores: ActionStores & Pick<Stores, "audit" | "revoked" | "signInThrottle">;
  jobs: () => ReadonlyMap<string, JobDefinition>;
  metrics: Metrics;
  security?: HttpSecurity;
  /** Where sign-ins, sign-outs, refusals and actions are logged (with who, never a secret). */
  logger?: Logger;
  /** How often a live dashboard gets news; tests make it quicker. */
  dashboardEveryMs?: number;
  /** The daemon's clock, which the sign-in throttle's waits are served on. */
  now: () => number;
}

export interface HttpServer {
  /** Where people reach it: http://host:port (the machine's name for a wildcard address). */
  url: string;
  /** The address bound (the real port when 0 was asked). */
  address: ListenAddress;
  close(): Promise<void>;
}

/** VCW_HTTP_TRUST_PROXY: the proxies' addresses and CIDRs, comma-separated (fastify's trustProxy). */
const trustProxyOf = (v: string): string[] =>
  v
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);

/** Why a listen failed, in words an operator can act on. */
function listenError(error: NodeJS.ErrnoException, at: string): Error {
  const what: Record<string, string> = {
    EADDRINUSE: `is taken (another vcw on this machine?): give each process its own VCW_HTTP_ADDR (port 0 picks a free one), or VCW_HTTP_ADDR=off`,
    EADDRNOTAVAIL: "is not an address of this machine",
    EACCES: "needs privileges this process has not (use a port above 1023)",
    ENOTFOUND: "names a host that does not resolve",
  };
  return new Error(
    `VCW_HTTP_ADDR ${at} ${what[error.code ?? ""] ?? `cannot be listened on: ${error.message}`}`,
  );
}

/**
 * The operator's surface of one daemon process: /livez, /readyz, /metrics, the dashboard at /, reports at /reports,
 * Bull Board at /admin/queues. Refuses to listen beyond loopback without a token.
 */
export async function startHttpServer(o: HttpServerOptions): Promise<HttpServer> {
  const at = formatAddress(o.address);
  if (!o.token && !isLoopback(o.address.host))
    throw new Error(
      `VCW_HTTP_ADDR ${at} can be reached from other machines: set VCW_HTTP_TOKEN (a long random string) or listen on 127.0.0.1`,
    );
  const sec = o.security ?? DEFAULT_SECURITY;
  const logger = o.logger ?? (await import("pino")).pino({ level: "silent" });
  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    bodyLimit: 64 * 1024,
    ...(sec.trustProxy ? { trustProxy: trustProxyOf(sec.trustProxy) } : {}),
  });
  let bound: ListenAddress = o.address;
  const hosts = () => allowedHosts(bound, { allowed: sec.allowedHosts, publicUrl: sec.publicUrl });
  let names = hosts();
  installHostCheck(app, () => names);
  installFrameGuard(app);
  const secure = (req: FastifyRequest) =>
    sec.publicUrl?.startsWith("https:") === true || req.protocol === "https";
  await installAuth(app, {
    token: o.token,
    sessionHours: sec.sessionHours,
    revoked: o.stores.revoked,
    secure,
    logger,
    throttle: o.stores.signInThrottle({ now: o.now }),
  });
  await installCsrf(app, { secure, publicOrigin: sec.publicUrl && new URL(sec.publicUrl).origin, logger });
  installHealth(app, o.health);
  installFavicon(app);
  const live = liveOverview(o.overview);
  o.metrics.readState(() => live.get());
  app.get("/metrics", async (_req, reply) =>
    reply.type(o.metrics.registry.contentType).send(await o.metrics.registry.metrics()),
  );
  installActions(
    app,
    createActionContext({ stores: o.stores, queues: o.queues, jobs: o.jobs, logger }),
    o.token !== undefined,
  );
  await installBoard(app, o.queues, o.token !== undefined);
  const dashboard = installDashboard(app, {
    live,
    jobs: o.jobs,
    inboxes: o.overview.inboxes,
    canReveal: o.token !== undefined,
    maxStreams: sec.maxStreams,
    ...(o.dashboardEveryMs ? { everyMs: o.dashboardEveryMs } : {}),
  });
  installCampaignsPage(app, {
    index: campaignIndex(o.overview),
    store: o.overview.store,
    canReveal: o.token !== undefined,
    audit: o.stores.audit,
  });
  installReportsPage(app, {
    store: o.overview.store,
    experiments: o.overview.experiments,
    inboxes: o.overview.inboxes,
    queues: o.queues,
    jobs: o.jobs,
    publicUrl: sec.publicUrl,
  });
  try {
    await app.listen({ host: o.address.host, port: o.address.port });
  } catch (error) {
    await app.close().catch(() => undefined);
    throw listenError(error as NodeJS.ErrnoException, at);
  }
  const { port } = app.server.address() as AddressInfo;
  bound = { host: o.address.host, port };
  names = hosts();
  const wildcard = o.address.host === "0.0.0.0" || o.address.host === "::";
  return {
    url: `http://${formatAddress({ host: wildcard ? hostname() : o.address.host, port })}`,
    address: { host: o.address.host, port },
    async close() {
      dashboard.close();
      await app.close();
    },
  };
}
