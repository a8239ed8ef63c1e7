import type { AddressInfo } from "node:net";
import { hostname } from "node:os";
import Fastify from "fastify";
import type { JobDefinition } from "../config/job-definition.ts";
import { formatAddress, isLoopback, type ListenAddress } from "../lib/listen-address.ts";
import type { Queues } from "../queue/queues.ts";
import { installAuth } from "./auth.ts";
import { installBoard } from "./board.ts";
import { installDashboard } from "./dashboard.ts";
import { type HealthSources, installHealth } from "./health.ts";
import { liveOverview } from "./live-overview.ts";
import type { Metrics } from "./metrics.ts";
import type { OverviewSources } from "./overview.ts";
import { installReportsPage } from "./reports-page.ts";

export interface HttpServerOptions {
  address: ListenAddress;
  token: string | undefined;
  health: HealthSources;
  overview: OverviewSources;
  queues: Queues;
  jobs: () => ReadonlyMap<string, JobDefinition>;
  metrics: Metrics;
  /** VCW_PUBLIC_URL: report pages link campaigns' results there. */
  publicUrl?: string | undefined;
  /** How often a live dashboard gets news; tests make it quicker. */
  dashboardEveryMs?: number;
}

export interface HttpServer {
  /** Where people reach it: http://host:port (the machine's name for a wildcard address). */
  url: string;
  /** The address bound (the real port when 0 was asked). */
  address: ListenAddress;
  close(): Promise<void>;
}

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
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 64 * 1024 });
  installAuth(app, o.token);
  installHealth(app, o.health);
  const live = liveOverview(o.overview);
  o.metrics.readState(() => live.get());
  app.get("/metrics", async (_req, reply) =>
    reply.type(o.metrics.registry.contentType).send(await o.metrics.registry.metrics()),
  );
  await installBoard(app, o.queues, o.token !== undefined);
  const dashboard = installDashboard(app, {
    live,
    jobs: o.jobs,
    canReveal: o.token !== undefined,
    ...(o.dashboardEveryMs ? { everyMs: o.dashboardEveryMs } : {}),
  });
  installReportsPage(app, {
    store: o.overview.store,
    queues: o.queues,
    jobs: o.jobs,
    publicUrl: o.publicUrl,
  });
  try {
    await app.listen({ host: o.address.host, port: o.address.port });
  } catch (error) {
    await app.close().catch(() => undefined);
    throw listenError(error as NodeJS.ErrnoException, at);
  }
  const { port } = app.server.address() as AddressInfo;
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
