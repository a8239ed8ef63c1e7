import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterEach, describe, expect, inject, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { readOverview } from "../../src/http/overview.ts";
import { emptyTotals, summarize } from "../../src/pipeline/model/campaign-totals.ts";
import { cliEnv, runCli, spawnVcw } from "../support/cli.ts";
import { quietLogger, testSettings, waitFor, writeJob } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { campaignInfo } from "../support/fixtures.ts";
import { sendJson, startHttpServer, type TestServer } from "../support/http-server.ts";

/** Issue 17, item 7: mistakes caught at start, not after hours of retries. */
describe("mistakes caught at start", () => {
  /** A job folder whose job sends summaries to `sinks`, defined by the YAML lines given. */
  function jobsWithSinks(home: string, sinkLines: string[], used: string[]) {
    const jobs = join(home, "jobs");
    mkdirSync(jobs, { recursive: true });
    writeFileSync(
      join(jobs, "hooked.yaml"),
      `name: hooked\ninbox: ${join(home, "inbox")}\nsegment: { name: hooked }\ncontacts: { country: US }\nsummaries: { sinks: [${used.join(", ")}] }\n`,
    );
    writeFileSync(join(jobs, "sinks.yaml"), ["sinks:", ...sinkLines].join("\n"));
    return jobs;
  }
  const unsetSinks = [
    "  hook:",
    "    type: webhook",
    "    url: http://127.0.0.1:9/hook",
    "    secretEnv: VCW_TEST_UNSET_SECRET",
    "  team:",
    "    type: slack",
    "    urlEnv: VCW_TEST_UNSET_SLACK_URL",
  ];

  it("vcw jobs check honours VCW_JOBS_DIR", async () => {
    const home = tempDir("vcw-checks-");
    const name = `from-env-${randomBytes(3).toString("hex")}`;
    writeJob(join(home, "jobs"), name, join(home, "inbox"));
    const check = await runCli(["jobs", "check"], { VCW_JOBS_DIR: join(home, "jobs") });
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain(`(${name}: `);
  }, 120_000);

  it("vcw jobs check fails on a webhook secretEnv or a Slack urlEnv that is unset, naming the variable", async () => {
    const home = tempDir("vcw-checks-");
    const jobs = jobsWithSinks(home, unsetSinks, ["hook", "team"]);
    const env = { VCW_TEST_UNSET_SECRET: "", VCW_TEST_UNSET_SLACK_URL: "" };
    const check = await runCli(["jobs", "check", jobs], env);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(
      `${join(jobs, "sinks.yaml")}: sinks.hook.secretEnv: the environment variable VCW_TEST_UNSET_SECRET`,
    );
    expect(check.stderr).toContain("sinks.team.urlEnv: the environment variable VCW_TEST_UNSET_SLACK_URL");
    // Set, both pass; the secret's value is never printed.
    const set = await runCli(["jobs", "check", jobs], {
      VCW_TEST_UNSET_SECRET: "s3cret-value",
      VCW_TEST_UNSET_SLACK_URL: "https://hooks.example/x",
    });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout + set.stderr).not.toContain("s3cret-value");
  }, 120_000);

  it("vcw start refuses such a sink, naming the variable, before it starts anything", async () => {
    const home = tempDir("vcw-checks-");
    jobsWithSinks(home, unsetSinks, ["hook"]);
    // No VCS_BASE_URL: a start that got as far would start its embedded simulator.
    const env = cliEnv(home, "", {
      VCS_BASE_URL: "",
      VCW_TEST_UNSET_SECRET: "",
      VCW_TEST_UNSET_SLACK_URL: "",
    });
    for (const round of [1, 2]) {
      const start = await runCli(["start"], env, 30_000);
      expect(start.code, `round ${round}`).toBe(1);
      expect(start.stderr).toContain("VCW_TEST_UNSET_SECRET");
      expect(start.stderr).toContain("VCW_TEST_UNSET_SLACK_URL");
      expect(start.stderr).not.toContain("embedded simulator started");
    }
  }, 120_000);

  it("a second vcw start on a taken HTTP address fails before starting anything", async () => {
    const home = tempDir("vcw-checks-");
    writeJob(join(home, "jobs"), "addr", join(home, "inbox"));
    const port = await freePort();
    const env = cliEnv(home, "", { VCS_BASE_URL: "", VCW_HTTP_ADDR: `127.0.0.1:${port}` });
    const first = spawnVcw(["start"], env);
    try {
      await waitFor(() => (first.logs().includes("daemon running") ? true : undefined), 60_000, "first up");
      for (const round of [1, 2]) {
        const second = await runCli(["start"], env, 30_000);
        expect(second.code, `round ${round}`).toBe(1);
        expect(second.stderr).toContain(`VCW_HTTP_ADDR 127.0.0.1:${port} is taken`);
        expect(second.stderr).not.toContain("embedded simulator started");
        expect(second.stderr).not.toMatch(/"msg":"redis: /);
      }
      // The first still serves.
      expect((await fetch(`http://127.0.0.1:${port}/livez`)).status).toBe(200);
    } finally {
      first.child.kill("SIGTERM");
      await first.exited;
    }
  }, 120_000);

  it("npm run demo leaves no key behind in the Redis it used, run twice", async () => {
    const prefix = `vcw-test-${randomBytes(4).toString("hex")}`;
    const redis = new Redis(inject("redisUrl"));
    // A key of another deployment on the same Redis (a daemon beside the demo) is left alone.
    await redis.set(`${prefix}:not-the-demos`, "kept");
    try {
      for (const round of [1, 2]) {
        const demo = await runCli(
          ["demo", "--dir", tempDir("vcw-demo-")],
          { REDIS_URL: inject("redisUrl"), VCW_PREFIX: prefix },
          90_000,
        );
        expect(demo.code, demo.stderr).toBe(0);
        expect(demo.stdout).toMatch(/finished, 100% complete/);
        const used = /keys under (\S+):,/.exec(demo.stdout)?.[1];
        expect(used?.startsWith(`${prefix}-demo-`), demo.stdout).toBe(true);
        expect(await redis.keys(`${used}:*`), `round ${round}`).toEqual([]);
        expect(await redis.get(`${prefix}:not-the-demos`)).toBe("kept");
      }
      await redis.del(`${prefix}:not-the-demos`);
    } finally {
      redis.disconnect();
    }
  }, 200_000);

  describe("the dashboard's read model", () => {
    let daemon: Daemon | undefined;
    let server: TestServer | undefined;
    afterEach(async () => {
      await daemon?.close();
      await server?.close();
      daemon = undefined;
      server = undefined;
    });

    it("counts deliveries that are being retried as trouble, before they fail", async () => {
      server = await startHttpServer((_req, res) => sendJson(res, 503, {}));
      const home = tempDir("vcw-checks-");
      mkdirSync(join(home, "jobs"));
      writeFileSync(
        join(home, "jobs", "sinks.yaml"),
        `sinks:\n  hook:\n    type: webhook\n    url: ${server.url}/hook\n`,
      );
      const settings = testSettings(home, "http://127.0.0.1:9/api/v1", {
        VCW_DELIVERY_ATTEMPTS: "20",
        VCW_DELIVERY_BACKOFF_MS: "60000",
      });
      daemon = await startDaemon({ settings, logger: quietLogger(), watch: false, work: true });
      const summary = summarize(
        campaignInfo({ name: "leads a.csv", job: "leads", file: "a.csv", state: "finished" }),
        emptyTotals(),
        1,
        "final",
        Date.now(),
      );
      await daemon.queues.deliveries.add("final", {
        sink: "hook",
        idempotencyKey: "k-retry",
        payload: summary,
      });
      const d = daemon;
      const overview = await waitFor(
        async () => {
          const o = await readOverview({
            inboxes: d.stores.inboxes,
            redis: d.redis,
            keys: d.keys,
            queues: d.queues,
            store: d.stores.store,
            experiments: d.stores.experiments,
            controls: d.stores.controls,
            resources: d.stores.resources,
            presence: d.stores.presence,
            jobs: () => d.jobs,
            watched: () => new Set(),
          });
          return o.retryingDeliveries.length > 0 ? o : undefined;
        },
        15_000,
        "a retrying delivery",
      );
      expect(overview.failedDeliveries).toEqual([]);
      expect(overview.retryingDeliveries).toEqual([
        expect.objectContaining({ sink: "hook", kind: "final", campaign: "leads a.csv", attempts: 1 }),
      ]);
      expect(overview.retryingDeliveries[0]!.reason).toMatch(/503/);
      const next = Date.parse(overview.retryingDeliveries[0]!.nextAttemptAt!);
      expect(next - Date.now()).toBeGreaterThan(50_000);
    });
  });
});

async function freePort(): Promise<number> {
  const s = createServer().listen(0, "127.0.0.1");
  await once(s, "listening");
  const { port } = s.address() as { port: number };
  s.close();
  await once(s, "close");
  return port;
}
