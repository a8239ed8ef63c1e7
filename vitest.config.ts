import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Six projects, so a developer runs the fast ones alone (`npm run test:unit`); `vitest run` runs all
 * six, as one run did before. test/test-projects.test.ts checks that every test file is in exactly
 * one project and that the unit project holds no test that reaches Redis, a process or Chromium.
 */
const CHAOS = ["test/chaos/**/*.test.ts"];
/** What the README and the package promise, run with no environment override (test/support/clean-env.ts). */
const DEFAULTS = ["test/defaults/**/*.test.ts"];
/** Tests that launch Chromium (test/support/browser.ts). */
const BROWSER = ["test/**/*.browser.test.ts", "test/daemon/experiment.test.ts"];
/** Tests that connect to Redis or start processes (daemons, the CLI, redis-server). */
const REDIS = [
  "test/cli/**/*.test.ts",
  "test/cluster/**/*.test.ts",
  "test/daemon/**/*.test.ts",
  "test/package/**/*.test.ts",
  "test/telemetry/{otlp-export,start,stop,traces}.test.ts",
  "test/config/{jobs,pool-resources,sink-variables}.test.ts",
  "test/http/{actions,hardening,operator-surface,report-bounds,sign-in-throttle,status-address}.test.ts",
  "test/inbox/{admit-race,bucket-inbox,inbox-guard,redrop}.test.ts",
  "test/lib/{per-key,redis-plumbing}.test.ts",
  "test/limiter/shared-rate-limiter.test.ts",
  "test/pipeline/calling/{caps,preview-agrees,stores}.test.ts",
  "test/pipeline/campaign/{audience-do-not-call,cancel-campaign,create-campaign,create-once}.test.ts",
  "test/pipeline/campaign/{late-copies,start-check,stop-mid-campaign,window-stop-lead}.test.ts",
  "test/pipeline/consent/{consent-import,revocation,audit-trail,consent-seller}.test.ts",
  "test/pipeline/files/**/*.test.ts",
  "test/pipeline/import/{import-contacts,kept-rows,resolve-segment,send-fence}.test.ts",
  "test/pipeline/reports/experiment-campaigns.test.ts",
  "test/pipeline/resources/apply.test.ts",
  "test/pipeline/results/{poll-campaign,poll-memo,poll-phone-spelling,poll-status-names,poll-streaming,poll-unlocked}.test.ts",
  "test/pipeline/stores/dnc/{do-not-call-lists,tree-layout}.test.ts",
  "test/pipeline/stores/{campaign-registry,create-memo,experiment-store,meta-once}.test.ts",
  "test/queue/{poll-tick-queued,read-model,report-scheduler,scheduler,unpolled-jobs}.test.ts",
  "test/simulator/{outcome-mix,state-durability}.test.ts",
  "test/sinks/{sinks,slow-sink,smtp-replies,standard-webhooks}.test.ts",
];
/**
 * Pure tests too long for the quick run: the calling oracle's random cases (about 3.5 minutes), and
 * files that take seconds by nature: real-time waits (a stalled stream closed after 2 s, a rate
 * limit that moves after 2.5 s) or inflating zip bombs of 100-200 MB; the guardrail's 14,000 simulated
 * experiments (about 8 s).
 */
const SLOW = [
  "test/pipeline/reports/experiment-sequential.test.ts",
  "test/pipeline/calling/oracle.test.ts",
  "test/pipeline/calling/oracle-generated.test.ts",
  "test/http/event-streams.test.ts",
  "test/simulator/rate-schedule-live.test.ts",
  "test/ingest/workbook-limits.test.ts",
  // Isolated, not for its length: it reads zod's global registry, which a unit worker shares with
  // files that load the API schemas again (a CI run at four workers generated it without them).
  "test/api/openapi.test.ts",
];
const ALL = ["test/**/*.test.ts"];
/**
 * What `npm run test:quick` (scripts/test-quick.mjs) leaves to the full run: the redis project's
 * files that start daemons, the CLI, clusters or the package. They reach almost every file and take minutes.
 */
const QUICK_LEAVES = process.env.VCW_TEST_QUICK
  ? ["test/cli/**", "test/cluster/**", "test/daemon/**", "test/package/**"]
  : [];
/**
 * A test's time limit where tests start processes (daemons, the CLI, redis-server, Chromium): with
 * four files at once on two cores one may take three times as long as alone (`npm run demo`'s test,
 * about 10 s alone, passed 30 s in a CI run). A pure test keeps 30 s: past that something is wrong.
 */
const PROCESS_TIMEOUT_MS = 120_000;
/** Redis (and a Redis Cluster) for the projects that use them; the unit project starts none. */
const REDIS_SETUP = ["test/support/global-setup.ts"];
/**
 * Files at once. Most of the run waits on real time (daemons, the simulator's calls, leases), not
 * the CPU: vitest's default (cores - 1) ran one file at a time on a 2-core machine, 43 minutes for a
 * run that takes 13 at three (1.05 cores busy on average). VCW_TEST_WORKERS sets it for a machine
 * that wants another figure.
 */
const WORKERS = Number(process.env.VCW_TEST_WORKERS) || Math.max(3, availableParallelism() - 1);

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Daemons the tests spawn inherit this: none binds 127.0.0.1:9400, where a developer's may run.
    // Nothing else: a test that needs another setting sets it itself, and says why. The defaults
    // project's commands inherit none of it (test/support/clean-env.ts).
    env: { VCW_HTTP_ADDR: "off" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ALL,
          exclude: [...CHAOS, ...BROWSER, ...REDIS, ...SLOW, ...DEFAULTS],
          // Pure tests share a worker's modules (zod, libphonenumber, the phone-geo tables are loaded
          // once a worker, not once a file): about half the run's CPU time.
          isolate: false,
        },
      },
      { extends: true, test: { name: "slow", include: SLOW } },
      {
        extends: true,
        test: {
          name: "redis",
          include: REDIS,
          exclude: [...CHAOS, ...BROWSER, ...QUICK_LEAVES],
          globalSetup: REDIS_SETUP,
          testTimeout: PROCESS_TIMEOUT_MS,
        },
      },
      {
        extends: true,
        test: {
          name: "browser",
          include: BROWSER,
          globalSetup: REDIS_SETUP,
          testTimeout: PROCESS_TIMEOUT_MS,
        },
      },
      {
        extends: true,
        test: { name: "chaos", include: CHAOS, globalSetup: REDIS_SETUP, testTimeout: PROCESS_TIMEOUT_MS },
      },
      // No Redis of the suite's: each command finds its own, as a user's does.
      { extends: true, test: { name: "defaults", include: DEFAULTS, testTimeout: PROCESS_TIMEOUT_MS } },
    ],
  },
});
