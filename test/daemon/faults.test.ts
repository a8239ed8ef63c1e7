import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort, type RedisServer, startRedisServer } from "../../src/daemon/redis-server.ts";
import { cliEnv, runCli, spawnVcw } from "../support/cli.ts";
import { contactsCsv, waitFor, writeJob } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { sendTrickle, startHttpServer, type TestServer } from "../support/http-server.ts";
import { useSimulator } from "../support/simulator.ts";

describe("faults an operator meets: a Redis password, an unreachable Redis, a service that never finishes", () => {
  const t = useSimulator();
  const CANARY = `pw-CANARY-${randomBytes(4).toString("hex")}`;
  let secured: RedisServer;

  beforeAll(async () => {
    secured = await startRedisServer({ password: CANARY });
  });
  afterAll(async () => {
    await secured?.stop();
  });

  const envFor = (home: string, redisUrl: string) =>
    cliEnv(home, t.sim.url, { REDIS_URL: redisUrl, LOG_LEVEL: "info" });

  it("the Redis password never shows: not in the daemon's logs, vcw status (text or JSON), vcw import, or errors", async () => {
    expect(secured.url).toContain(CANARY);
    const home = tempDir("vcw-secret-");
    const env = envFor(home, secured.url);
    writeJob(join(home, "jobs"), "crm", join(home, "inbox"), `crm-${randomBytes(3).toString("hex")}`);
    const daemon = spawnVcw(["start"], env);
    try {
      await waitFor(
        () => (daemon.logs().includes("vcw daemon running") ? true : undefined),
        30_000,
        "daemon up",
      );
    } finally {
      daemon.child.kill("SIGTERM");
      await daemon.exited;
    }
    const file = join(home, "crm.csv");
    writeFileSync(file, contactsCsv(3, { from: 800 }));
    const outputs = [
      daemon.logs(),
      ...(await Promise.all([
        runCli(["status"], env),
        runCli(["status", "--json"], env),
        runCli(["import", file, "--job", "crm"], env),
        runCli(["status"], { ...env, REDIS_URL: `redis://:${CANARY}@127.0.0.1:${await freePort()}` }),
        runCli(["status"], { ...env, REDIS_URL: secured.url.replace(CANARY, `${CANARY}-wrong`) }),
      ]).then((rs) => rs.flatMap((r) => [r.stdout, r.stderr]))),
    ];
    expect(daemon.logs()).toContain("redis://:***@127.0.0.1");
    expect(outputs[1]).toContain("redis://:***@127.0.0.1");
    for (const [i, text] of outputs.entries()) expect(text, `output ${i}`).not.toContain(CANARY);
  }, 90_000);

  it("a Redis that evicts keys is refused at start; one that keeps nothing on disk is warned about", async () => {
    const evicting = await startRedisServer({ extraArgs: ["--maxmemory-policy", "allkeys-lru"] });
    try {
      const home = tempDir("vcw-evict-");
      writeJob(join(home, "jobs"), "crm", join(home, "inbox"), "crm-evict");
      const refused = await runCli(
        ["import", join(home, "x.csv"), "--job", "crm"],
        envFor(home, evicting.url),
      );
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain("evicts keys (maxmemory-policy allkeys-lru)");
      expect(refused.stderr).toContain("Set maxmemory-policy noeviction");
    } finally {
      await evicting.stop();
    }
    const volatile = await startRedisServer(); // no AOF, no save points
    try {
      const home = tempDir("vcw-volatile-");
      writeJob(join(home, "jobs"), "crm", join(home, "inbox"), "crm-volatile");
      const daemon = spawnVcw(["start"], envFor(home, volatile.url));
      await waitFor(() => (daemon.logs().includes("vcw daemon running") ? true : undefined), 30_000);
      daemon.child.kill("SIGTERM");
      await daemon.exited;
      expect(daemon.logs()).toContain("Redis keeps nothing on disk");
    } finally {
      await volatile.stop();
    }
  }, 60_000);

  it.each([
    ["status"],
    ["status", "--json"],
    ["report", "cmp_1"],
    ["retry", "deliveries"],
    ["suppress", "list"],
  ])("vcw %s fails fast and clearly when Redis doesn't answer", async (...args) => {
    const dead = `redis://127.0.0.1:${await freePort()}`;
    const started = Date.now();
    const r = await runCli(args, { REDIS_URL: dead }, 20_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`vcw: Redis does not answer at ${dead} ($REDIS_URL)`);
  });

  describe("a service that sends headers, then one byte every 2 s", () => {
    let hostile: TestServer;
    beforeAll(async () => {
      hostile = await startHttpServer((_req, res) => sendTrickle(res, 200, { everyMs: 2_000 }));
    });
    afterAll(async () => {
      await hostile?.close();
    });

    it("vcw start stops within its grace period on SIGTERM, a request still hanging", async () => {
      const home = tempDir("vcw-hang-");
      const inbox = join(home, "inbox");
      writeJob(join(home, "jobs"), "stuck", inbox, "stuck-segment");
      const daemon = spawnVcw(["start"], {
        ...envFor(home, inject("redisUrl")),
        VCS_BASE_URL: hostile.url,
        VCW_REQUEST_TIMEOUT_MS: "60000",
        VCW_SHUTDOWN_GRACE_MS: "2000",
        VCW_STABLE_MS: "100",
      });
      mkdirSync(inbox, { recursive: true });
      writeFileSync(join(inbox, "leads.csv"), contactsCsv(5, { from: 900 }));
      await waitFor(() => (hostile.requests.length > 0 ? true : undefined), 30_000, "a request hanging");
      const stopped = Date.now();
      daemon.child.kill("SIGTERM");
      await daemon.exited;
      expect(Date.now() - stopped).toBeLessThan(9_000);
    }, 60_000);
  });
});
