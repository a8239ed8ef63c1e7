import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { cliEnv, runCli, spawnVcw, type VcwProcess } from "../support/cli.ts";
import { waitFor, writeJob } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { useSimulator } from "../support/simulator.ts";

const HEALTHCHECK = fileURLToPath(new URL("../../bin/healthcheck.js", import.meta.url));
const run = promisify(execFile);

/** Exit status of the image's HEALTHCHECK script against `addr`. */
const healthcheck = (addr: string) =>
  run(process.execPath, [HEALTHCHECK], { env: { ...process.env, VCW_HTTP_ADDR: addr } }).then(
    () => 0,
    (e: { code?: number }) => e.code ?? 1,
  );

describe("a running daemon's HTTP address", () => {
  const t = useSimulator();
  const running: VcwProcess[] = [];
  afterEach(() => {
    for (const p of running.splice(0)) p.child.kill("SIGKILL");
  });

  it("vcw status prints where each running daemon's dashboard and metrics are; the healthcheck finds /livez", async () => {
    const home = tempDir("vcw-status-http-");
    writeJob(join(home, "jobs"), "leads", join(home, "inbox"));
    const env = cliEnv(home, t.sim.url, { LOG_LEVEL: "info" });
    // Two processes on one machine, each on a port of its own.
    const start = spawnVcw(["start"], { ...env, VCW_HTTP_ADDR: "127.0.0.1:0" }, home);
    const worker = spawnVcw(["worker"], { ...env, VCW_HTTP_ADDR: "127.0.0.1:0" }, home);
    running.push(start, worker);
    const urlOf = (p: VcwProcess) =>
      waitFor(() => /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(p.logs())?.[1], 20_000, "the dashboard's URL");
    const [startUrl, workerUrl] = await Promise.all([urlOf(start), urlOf(worker)]);
    expect(startUrl).not.toBe(workerUrl);

    const status = await runCli(["status", "--json"], env);
    expect(status.code).toBe(0);
    const daemons = (JSON.parse(status.stdout) as { daemons: { role: string; http: string; pid: number }[] })
      .daemons;
    expect(daemons.map((d) => [d.role, d.http]).sort()).toEqual([
      ["start", startUrl],
      ["worker", workerUrl],
    ]);
    const text = await runCli(["status"], env);
    expect(text.stdout).toContain(`daemon start on `);
    expect(text.stdout).toContain(`${startUrl}/ (dashboard), ${startUrl}/metrics`);

    const port = new URL(startUrl).port;
    expect(await healthcheck(`0.0.0.0:${port}`)).toBe(0);

    // Stopped: gone from the list at once, and the healthcheck fails.
    start.child.kill("SIGTERM");
    await start.exited;
    expect(await healthcheck(`127.0.0.1:${port}`)).toBe(1);
    const after = JSON.parse((await runCli(["status", "--json"], env)).stdout) as {
      daemons: { role: string }[];
    };
    expect(after.daemons.map((d) => d.role)).toEqual(["worker"]);
  });
});
