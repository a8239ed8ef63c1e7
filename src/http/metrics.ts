import type { Job, Worker } from "bullmq";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { AttemptRecord } from "../api/observer.ts";
import type { ImportSummary } from "../queue/job-results.ts";
import type { DeliveryJobData, ImportJobData } from "../queue/queues.ts";
import type { Overview } from "./overview.ts";

const GAUGES_NAMED_TOTAL = [
  "nodejs_active_handles_total",
  "nodejs_active_requests_total",
  "nodejs_active_resources_total",
];

/**
 * The daemon's Prometheus metrics, in a registry of its own (several daemons may share a process in
 * tests). Counters count what this process did; gauges read the shared state (BullMQ, Redis) when
 * scraped. Labels are operations, statuses, queue, job and sink names: never a phone, a URL or a secret.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Gauges named like counters, which `promtool check metrics` rejects; the same numbers by type
  // stay (nodejs_active_handles, _requests, _resources): their sum is the total.
  for (const name of GAUGES_NAMED_TOTAL) registry.removeSingleMetric(name);
  const registers = [registry];
  const apiRequests = new Counter({
    name: "vcw_api_requests_total",
    help: "Requests to the calling service, one per attempt (retries count), by operation and HTTP status or timeout/network/aborted/too_large",
    labelNames: ["operation", "status"],
    registers,
  });
  const apiDuration = new Histogram({
    name: "vcw_api_request_duration_seconds",
    help: "Duration of each attempt from sending to the last byte of the answer (the wait for the shared rate excluded)",
    labelNames: ["operation"],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const contacts = new Counter({
    name: "vcw_contacts_total",
    help: "Rows of the files this process imported, by job and outcome: created, known (already there), elsewhere (created by another import), refused (by the service), rejected (invalid), duplicate, skipped",
    labelNames: ["job", "outcome"],
    registers,
  });
  const files = new Counter({
    name: "vcw_files_total",
    help: "Files this process finished importing, by job and outcome (imported, rejected)",
    labelNames: ["job", "outcome"],
    registers,
  });
  const deliveries = new Counter({
    name: "vcw_deliveries_total",
    help: "Summary deliveries by this process, by sink and outcome: delivered, retried (an attempt failed, another is scheduled), failed (no attempt left)",
    labelNames: ["sink", "outcome"],
    registers,
  });

  function importFinished(s: ImportSummary): void {
    files.inc({ job: s.job, outcome: s.status });
    if (s.status !== "imported" || !s.totals) return;
    const rows: Record<string, number> = {
      created: s.created ?? 0,
      known: s.known ?? 0,
      elsewhere: s.elsewhere ?? 0,
      refused: s.failed ?? 0,
      rejected: s.totals.rejected,
      duplicate: s.totals.duplicates,
      skipped: s.totals.skipped,
    };
    for (const [outcome, n] of Object.entries(rows)) contacts.inc({ job: s.job, outcome }, n);
  }

  return {
    registry,
    /** The client's observer: one call per attempt. */
    observeRequest(a: AttemptRecord): void {
      apiRequests.inc({ operation: a.operation, status: a.status });
      apiDuration.observe({ operation: a.operation }, a.durationMs / 1000);
    },
    /** Counts what this process's import and delivery workers finish. */
    watchWorkers(w: { imports?: Worker | undefined; deliveries?: Worker | undefined }): void {
      w.imports?.on("completed", (_job, result: ImportSummary) => importFinished(result));
      w.imports?.on("failed", (job: Job<ImportJobData> | undefined) => {
        if (job?.finishedOn) files.inc({ job: job.data.job, outcome: "rejected" });
      });
      w.deliveries?.on("completed", (job: Job<DeliveryJobData>) =>
        deliveries.inc({ sink: job.data.sink, outcome: "delivered" }),
      );
      w.deliveries?.on("failed", (job: Job<DeliveryJobData> | undefined) => {
        if (job) deliveries.inc({ sink: job.data.sink, outcome: job.finishedOn ? "failed" : "retried" });
      });
    },
    /** Gauges of the shared state, read (through the overview's cache) when scraped. */
    readState(read: () => Promise<Overview>): void {
      stateGauges(registry, read);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

function stateGauges(registry: Registry, read: () => Promise<Overview>): void {
  const registers = [registry];
  const gauge = (name: string, help: string, labelNames: string[], fill: (g: Gauge, o: Overview) => void) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers,
      async collect() {
        const o = await read();
        this.reset();
        // Redis away: no value rather than a stale one (vcw_redis_up says why).
        if (o.redis.ok || name === "vcw_redis_up") fill(this, o);
      },
    });
  gauge("vcw_redis_up", "1 when Redis answered the last read of the state, else 0", [], (g, o) =>
    g.set(o.redis.ok ? 1 : 0),
  );
  gauge("vcw_queue_jobs", "Jobs per BullMQ queue and state", ["queue", "state"], (g, o) => {
    for (const q of o.queues)
      for (const [state, n] of Object.entries(q.counts)) g.set({ queue: q.name, state }, n);
  });
  gauge("vcw_queue_paused", "1 when a queue is paused", ["queue"], (g, o) => {
    for (const q of o.queues) g.set({ queue: q.name }, q.paused ? 1 : 0);
  });
  gauge(
    "vcw_shared_rate_requests_per_second",
    "The request rate all workers share (adaptive: what the service currently bears)",
    [],
    (g, o) => {
      if (o.rate !== null) g.set(o.rate);
    },
  );
  gauge(
    "vcw_campaigns",
    "Campaigns kept in Redis, by job and state (active, finished, stuck)",
    ["job", "state"],
    (g, o) => {
      for (const c of o.campaignCounts) g.set({ job: c.job, state: c.state }, c.count);
    },
  );
  gauge(
    "vcw_campaigns_unpolled",
    "Active campaigns of a job that no running vcw start ticks (not loaded, or no campaign section): nobody stops them",
    ["job"],
    (g, o) => {
      for (const j of o.unpolledJobs) g.set({ job: j.job }, j.active);
    },
  );
  gauge(
    "vcw_polls_behind",
    "1 when a job's last poll tick found polls of earlier ticks still waiting or campaigns overdue by a tick or more",
    ["job"],
    (g, o) => {
      for (const j of o.jobs) if (j.polls) g.set({ job: j.name }, j.polls.behind ? 1 : 0);
    },
  );
  gauge(
    "vcw_poll_lag_seconds",
    "How late the most overdue campaign of a job was at its last poll tick",
    ["job"],
    (g, o) => {
      for (const j of o.jobs) if (j.polls) g.set({ job: j.name }, j.polls.lagSeconds);
    },
  );
  gauge(
    "vcw_inbox_files",
    "Contact files per job waiting in the inbox or in processing/",
    ["job", "folder"],
    (g, o) => {
      for (const j of o.jobs) {
        g.set({ job: j.name, folder: "inbox" }, j.waiting);
        g.set({ job: j.name, folder: "processing" }, j.processing);
      }
    },
  );
}
