import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, inject } from "vitest";
import type { Client } from "../../src/api/index.ts";
import type { Simulator, SimulatorOptions } from "../../src/simulator/server.ts";
import { spawnVcw, type VcwProcess } from "../support/cli.ts";
import { contactsCsv, drop, shortLeaseEnv, summaryOf, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { API_KEY, validAssistant, validDialer } from "../support/fixtures.ts";
import type { TestServer } from "../support/http-server.ts";
import { type ProxyRule, startProxy } from "../support/proxy.ts";
import { useSimulator } from "../support/simulator.ts";

/** Short leases and locks, so a pause past them costs seconds; the settle time covers the slowest answer. */
export const CHAOS_ENV: NodeJS.ProcessEnv = {
  VCW_REQUEST_TIMEOUT_MS: "1000",
  VCW_MAX_RETRIES: "1",
  VCW_LEASE_MARGIN_MS: "500",
  VCW_SETTLE_MS: "4000",
  VCW_LOCK_MS: "1000",
  VCW_STALLED_INTERVAL_MS: "500",
  VCW_MAX_STALLED: "100",
  VCW_STABLE_MS: "100",
  VCW_IMPORT_BACKOFF_MS: "200",
  VCW_RESCAN_MS: "1000",
  VCW_HTTP_ADDR: "off",
  LOG_LEVEL: "info",
};

/** Settings that change no timing of the protocol: all a run "with the defaults" sets. */
export const NEUTRAL_ENV: NodeJS.ProcessEnv = { VCW_HTTP_ADDR: "off", LOG_LEVEL: "info" };

export interface ChaosJob {
  inbox: string;
  segmentId: string;
  prefix: string;
  /** A daemon process (`vcw start` or `vcw worker`) of this job, with more settings. */
  start(role: "start" | "worker", more?: NodeJS.ProcessEnv): VcwProcess;
}

/** A job with its own folders and key space, its segment created up front; its processes are killed by `running`. */
export async function chaosJob(
  sim: Simulator,
  running: VcwProcess[],
  o: {
    env?: NodeJS.ProcessEnv;
    redisUrl?: string;
    concurrency?: number;
    defaults?: boolean;
    /** Another inbox than a folder of its own: a bucket prefix (s3://...). */
    inbox?: string;
  } = {},
): Promise<ChaosJob> {
  const home = tempDir("vcw-chaos-");
  const inbox = o.inbox ?? join(home, "inbox");
  const segmentId = sim.store.add("segments", {
    id: sim.store.newId("segments"),
    fields: { name: `chaos-${randomBytes(3).toString("hex")}`, description: "" },
  }).id;
  mkdirSync(join(home, "jobs"));
  writeFileSync(
    join(home, "jobs", "chaos.yaml"),
    `name: chaos\ninbox: ${inbox}\nsegment:\n  id: ${segmentId}\ncontacts:\n  country: US\nimport:\n  concurrency: ${o.concurrency ?? 16}\n`,
  );
  const prefix = `vcw-chaos-${randomBytes(4).toString("hex")}`;
  const env: NodeJS.ProcessEnv = {
    REDIS_URL: o.redisUrl ?? inject("redisUrl"),
    VCS_BASE_URL: sim.url,
    VCS_API_KEY: API_KEY,
    VCW_JOBS_DIR: join(home, "jobs"),
    VCW_HOME: join(home, ".vcw"),
    VCW_PREFIX: prefix,
    ...(o.defaults ? NEUTRAL_ENV : CHAOS_ENV),
    ...o.env,
  };
  return {
    inbox,
    segmentId,
    prefix,
    start(role, more = {}) {
      const p = spawnVcw([role], { ...env, ...more });
      running.push(p);
      return p;
    },
  };
}

/** The phones of a segment as the service holds them, every copy. */
export const phonesOn = (sim: Simulator, segmentId: string) =>
  sim.store.contactsOf(segmentId).map((c) => String(c.fields.phone));

/** Each of `expected` exactly once on the service, nothing else. */
export function copiesOf(sim: Simulator, segmentId: string): { total: number; distinct: number } {
  const phones = phonesOn(sim, segmentId);
  return { total: phones.length, distinct: new Set(phones).size };
}

/** Whether the process is stopped (SIGSTOP): its state in /proc is `T`. */
export function isStopped(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("T") === true;
  } catch {
    return false;
  }
}

/** Waits until the process stopped itself at its fault point (see src/lib/failpoint.ts). */
export async function untilStopped(p: VcwProcess, timeoutMs = 60_000): Promise<void> {
  await waitFor(
    () => (isStopped(p.child.pid) ? true : undefined),
    timeoutMs,
    "the process to stop at its fault point",
  );
}

/** Waits until the segment holds `n` contacts on the service. */
export async function untilContacts(sim: Simulator, segmentId: string, n: number, timeoutMs = 60_000) {
  await waitFor(() => (phonesOn(sim, segmentId).length >= n ? true : undefined), timeoutMs, `${n} contacts`);
}

/** With CHAOS_LOG_DIR set, each process's log is kept there (a failed run's story). */
export function keepLogs(test: string, running: readonly VcwProcess[]): void {
  const dir = process.env.CHAOS_LOG_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const name = test.replace(/[^\w]+/g, "-").slice(0, 60);
  for (const [i, p] of running.entries()) writeFileSync(join(dir, `${name}-${i}.log`), p.logs());
}

/** Holds a process stopped for `ms`, then resumes it. */
export async function pauseFor(p: VcwProcess, ms: number): Promise<void> {
  p.child.kill("SIGSTOP");
  await sleep(ms);
  p.child.kill("SIGCONT");
}

/**
 * A job whose files each get a campaign (`chaos-<tag>-<file>`), short leases, its own folders and
 * key space: `start` spawns one of its daemons (killed by `running`'s owner).
 */
export async function chaosCampaignJob(
  t: { sim: Simulator; client: Client },
  running: VcwProcess[],
  o: { extraJob?: string; env?: NodeJS.ProcessEnv } = {},
) {
  const home = tempDir("vcw-chaos-");
  const inbox = join(home, "inbox");
  const assistant = (await t.client.assistants.create(validAssistant())).id!;
  const dialer = (await t.client.dialers.create(validDialer())).id!;
  const tag = randomBytes(3).toString("hex");
  mkdirSync(join(home, "jobs"));
  writeFileSync(
    join(home, "jobs", "chaos.yaml"),
    `name: chaos\ninbox: ${inbox}\nsegment:\n  name: chaos-${tag}\ncontacts:\n  country: US\n` +
      `campaign:\n  assistant: { id: ${assistant} }\n  dialer: { id: ${dialer} }\n  name: "chaos-${tag}-{file}"\n${o.extraJob ?? ""}`,
  );
  const env: NodeJS.ProcessEnv = {
    ...shortLeaseEnv(home, t.sim.url, `vcw-test-${randomBytes(4).toString("hex")}`),
    ...o.env,
  };
  const start = (role: "start" | "worker", more: NodeJS.ProcessEnv = {}) => {
    const p = spawnVcw([role], { ...env, ...more });
    running.push(p);
    return p;
  };
  const campaignsNamed = async (prefix: string) =>
    (await t.client.campaigns.list()).filter((c) => c.campaigns_name?.startsWith(prefix));
  return { inbox, tag, env, start, campaignsNamed };
}

/** Kills every process, a stopped one too. */
export function killAll(running: readonly VcwProcess[]): void {
  for (const p of running) {
    p.child.kill("SIGCONT");
    p.child.kill("SIGKILL");
  }
}

/**
 * Issue 28's third scenario: `vcw start` and `vcw worker` on 600 phones; the first is stopped
 * (SIGSTOP) for `pauseMs` mid-import, past its lease and job lock, while the other carries on,
 * then resumed. Its file's summary, once in done/ and a late create's time after.
 */
export async function pausedMidImport(
  sim: Simulator,
  running: VcwProcess[],
  o: { pauseMs: number; from: number; defaults?: boolean; doneWithinMs: number },
) {
  const job = await chaosJob(sim, running, {
    env: { VCW_RATE_LIMIT: "100" },
    ...(o.defaults ? { defaults: true } : {}),
  });
  const first = job.start("start");
  job.start("worker");
  drop(job.inbox, "paused.csv", contactsCsv(600, { from: o.from }));
  await untilContacts(sim, job.segmentId, 120);
  await pauseFor(first, o.pauseMs);
  const summary = await waitFor(() => summaryOf(job.inbox, "paused.csv"), o.doneWithinMs, "paused.csv done");
  // A late create of the paused process would show now.
  await sleep(2_000);
  return { job, summary };
}

/** A gate that proxied requests are held behind (`holdUntil: opened`) until `open` is called. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** A proxy rule for campaign creates alone: `rule` is told each one's number, from 1. */
export function onCampaignCreates(rule: (n: number) => ReturnType<ProxyRule>): ProxyRule {
  let n = 0;
  return (req) => {
    if (req.method !== "POST" || !req.url?.endsWith("/campaign/create")) return undefined;
    n += 1;
    return rule(n);
  };
}

/**
 * A simulator (real time) for one file's tests, the vcw processes they start (killed after, logs
 * kept with CHAOS_LOG_DIR) and proxies in front of the simulator (closed after).
 */
export function useProxiedChaos(options: Partial<SimulatorOptions> = {}) {
  const t = useSimulator(options);
  const running: VcwProcess[] = [];
  const proxies: TestServer[] = [];
  afterEach((ctx) => keepLogs(ctx.task.name, running));
  afterAll(async () => {
    killAll(running);
    for (const p of proxies) await p.close();
  });
  const proxy = async (rule: ProxyRule) => {
    const p = await startProxy(t.sim.url, rule);
    proxies.push(p);
    return p;
  };
  return { t, running, proxy };
}
