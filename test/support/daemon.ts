import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pino from "pino";
import { inject } from "vitest";
import { resolveSettings } from "../../src/config/settings.ts";
import type { ImportFileResult } from "../../src/pipeline/import/import-file.ts";
import type { ImportSummary } from "../../src/queue/job-results.ts";

/** A summary as written to disk: the fields of a finished import are all there. */
export type Summary = ImportSummary & ImportFileResult & { errorsFile: string };

import { API_KEY } from "./fixtures.ts";

/** The phone of contact `i` of a generated file: distinct US numbers. */
export const phoneOf = (i: number) => `+1415${String(2_000_000 + i).padStart(7, "0")}`;

/** A CSV of `n` valid contacts from `from`, plus the rows in `extra` (raw CSV lines). */
export function contactsCsv(n: number, o: { from?: number; extra?: string[] } = {}): string {
  const lines = ["Phone,First Name,Email"];
  for (let i = 0; i < n; i++) {
    const k = (o.from ?? 0) + i;
    lines.push(`${phoneOf(k).slice(2)},Contact ${k},c${k}@example.com`);
  }
  lines.push(...(o.extra ?? []));
  return `${lines.join("\n")}\n`;
}

/** A job definition YAML in `jobsDir`, watching `inbox`. */
export function writeJob(jobsDir: string, name: string, inbox: string, segment = `seg-${name}`): void {
  mkdirSync(jobsDir, { recursive: true });
  writeFileSync(
    join(jobsDir, `${name}.yaml`),
    `name: ${name}\ninbox: ${inbox}\nsegment:\n  name: ${segment}\ncontacts:\n  country: US\n`,
  );
}

/** Drops a file the way a careful sender does: written under a temporary name, renamed in. */
export function drop(inbox: string, name: string, text: string): void {
  mkdirSync(inbox, { recursive: true });
  const tmp = join(inbox, `.${name}.${randomBytes(3).toString("hex")}.part`);
  writeFileSync(tmp, text);
  renameSync(tmp, join(inbox, name));
}

/** Polls `check` until it returns something other than undefined. */
export async function waitFor<T>(
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 20_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/**
 * The summary of a file once it reached done/ or rejected/ (by the name it arrived under). The file
 * is settled when it is there itself: its summary and error report are written first, the file
 * moves last (settle-file.ts), so a summary alone may still lack the file and its errors beside it.
 */
export function summaryOf(inbox: string, original: string, where: "done" | "rejected" = "done") {
  const dir = join(inbox, where);
  if (!existsSync(dir)) return undefined;
  const name = readdirSync(dir).find((f) => f.endsWith(`-${original}.summary.json`) && !f.includes("-dup"));
  if (!name || !existsSync(join(dir, name.slice(0, -".summary.json".length)))) return undefined;
  return JSON.parse(readFileSync(join(dir, name), "utf8")) as Summary;
}

/**
 * The environment of a `vcw` process with short leases (a request times out in 1 s, once retried:
 * a lease of about 2.5 s) and quick takeovers, in its own folders and key space under `home`.
 */
export const shortLeaseEnv = (home: string, serviceUrl: string, prefix: string): NodeJS.ProcessEnv => ({
  REDIS_URL: inject("redisUrl"),
  VCS_BASE_URL: serviceUrl,
  VCS_API_KEY: API_KEY,
  VCW_JOBS_DIR: join(home, "jobs"),
  VCW_HOME: join(home, ".vcw"),
  VCW_PREFIX: prefix,
  VCW_REQUEST_TIMEOUT_MS: "1000",
  VCW_MAX_RETRIES: "1",
  VCW_LEASE_MARGIN_MS: "500",
  // Longer than any test latency: a create timed out is applied by then or never.
  VCW_SETTLE_MS: "2000",
  VCW_LOCK_MS: "1000",
  VCW_STALLED_INTERVAL_MS: "500",
  VCW_MAX_STALLED: "100",
  VCW_STABLE_MS: "100",
  VCW_IMPORT_BACKOFF_MS: "200",
  LOG_LEVEL: "info",
});

/** Settings of a daemon on the test Redis and a given service, in its own key space and folders. */
export function testSettings(home: string, baseUrl: string, extra: NodeJS.ProcessEnv = {}) {
  return resolveSettings(
    {
      REDIS_URL: inject("redisUrl"),
      VCS_BASE_URL: baseUrl,
      VCS_API_KEY: API_KEY,
      VCW_JOBS_DIR: join(home, "jobs"),
      VCW_RESOURCES_DIR: join(home, "resources"),
      VCW_HOME: join(home, ".vcw"),
      VCW_PREFIX: `vcw-test-${randomBytes(4).toString("hex")}`,
      VCW_REQUEST_TIMEOUT_MS: "2000",
      VCW_MAX_RETRIES: "2",
      VCW_STABLE_MS: "200",
      VCW_IMPORT_BACKOFF_MS: "100",
      VCW_IMPORT_ATTEMPTS: "3",
      VCW_LEASE_MARGIN_MS: "500",
      // The test's own simulator answers or drops a create at once, nothing queues it: campaigns
      // start at their create, unchecked (the settle time and start lead: settle-start.test.ts,
      // held-create.test.ts and the defaults project, test/defaults/).
      VCW_SETTLE_MS: "0",
      VCW_START_LEAD_MS: "0",
      // Tests that look at the HTTP surface ask for it, on a free port (127.0.0.1:0).
      VCW_HTTP_ADDR: "off",
      ...extra,
    },
    home,
  );
}

export const quietLogger = () => pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
