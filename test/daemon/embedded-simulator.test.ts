import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, inject, it } from "vitest";
import { embeddedRecordOf } from "../../src/daemon/embedded-simulator.ts";
import { loadState } from "../../src/simulator/state-file.ts";
import { runCli, spawnVcw, type VcwProcess } from "../support/cli.ts";
import { contactsCsv, drop, summaryOf, waitFor, writeJob } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";

/** A `vcw` on embedded defaults (no VCS_BASE_URL, no key) in `home`, on the test Redis. */
function embeddedEnv(home: string, prefix: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    REDIS_URL: inject("redisUrl"),
    VCW_JOBS_DIR: join(home, "jobs"),
    VCW_HOME: join(home, ".vcw"),
    VCW_PREFIX: prefix,
    VCW_STABLE_MS: "100",
  };
  delete env.VCS_BASE_URL;
  delete env.VCS_API_KEY;
  return env;
}

const running: VcwProcess[] = [];

/** `vcw ARGS` spawned (stopped after the test), once it logged `line`. */
async function runningVcw(args: string[], env: NodeJS.ProcessEnv, line: string): Promise<VcwProcess> {
  const p = spawnVcw(args, env);
  running.push(p);
  await waitFor(() => (p.logs().includes(line) ? true : undefined), 30_000, line);
  return p;
}
afterEach(async () => {
  for (const p of running.splice(0)) {
    if (p.child.exitCode === null) p.child.kill("SIGKILL");
    await p.exited;
  }
});

describe("two vcw processes on embedded defaults under one home", () => {
  it("share one simulator: the second daemon and `vcw import` join the first's; one state, each contact once", async () => {
    const home = tempDir("vcw-embedded-");
    const inbox = join(home, "inbox");
    writeJob(join(home, "jobs"), "embedded", inbox);
    const env = embeddedEnv(home, `vcw-test-${randomBytes(4).toString("hex")}`);
    const started = (p: VcwProcess) =>
      waitFor(() => (p.logs().includes("vcw daemon running") ? true : undefined), 30_000, "a daemon");

    const first = spawnVcw(["start"], env);
    running.push(first);
    await started(first);
    const record = embeddedRecordOf(join(home, ".vcw"));
    // Its owner's alone (daemon/home-record.ts), and no key in it: the key is the home's own.
    expect(statSync(record).mode & 0o777).toBe(0o600);
    expect(Object.keys(JSON.parse(readFileSync(record, "utf8"))).sort()).toEqual([
      "idempotencyKeys",
      "pid",
      "url",
    ]);

    const second = spawnVcw(["start"], env);
    running.push(second);
    await started(second);
    expect(first.logs()).toContain("embedded simulator started");
    expect(second.logs()).toContain("embedded simulator joined");
    expect(second.logs()).not.toContain("embedded simulator started");

    drop(inbox, "people.csv", contactsCsv(40));
    const summary = await waitFor(() => summaryOf(inbox, "people.csv"), 60_000, "the file's summary");
    expect(summary.created).toBe(40);

    // A one-shot command beside them uses the same service: its file's 10 new people join the 40.
    const csv = join(home, "more.csv");
    writeFileSync(csv, contactsCsv(10, { from: 40 }));
    const imported = await runCli(["import", csv, "--job", "embedded"], env, 60_000);
    expect(imported.code, imported.stderr).toBe(0);
    // `vcw api` finds the running simulator the same way (it asked for VCS_BASE_URL before).
    const listed = await runCli(["api", "segments.list"], { ...env, LOG_LEVEL: "info" }, 60_000);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).toContain("embedded simulator joined");
    expect(JSON.parse(listed.stdout).map((s: { name: string }) => s.name)).toEqual(["seg-embedded"]);

    second.child.kill("SIGTERM");
    await second.exited;
    expect(existsSync(record)).toBe(true);
    first.child.kill("SIGTERM");
    await first.exited;
    // The record goes with the simulator; the state holds every contact once.
    expect(existsSync(record)).toBe(false);
    const state = loadState(join(home, ".vcw", "simulator.json"));
    const phones = (state?.data?.contacts ?? []).map((c) => String(c.fields.phone));
    expect(new Set(phones).size).toBe(50);
    expect(phones.length).toBe(50);
  }, 120_000);
});

describe("processes that only join the embedded simulator", () => {
  it("a worker and `vcw jobs check` join the daemon's; without one, the worker refuses and jobs check is offline", async () => {
    const home = tempDir("vcw-embedded-join-");
    writeJob(join(home, "jobs"), "joined", join(home, "inbox"));
    // A job naming the embedded simulator's demo assistant: jobs check reads it when it can.
    writeFileSync(
      join(home, "jobs", "named.yaml"),
      `name: named\ninbox: ${join(home, "inbox-named")}\nsegment:\n  name: named\ncontacts:\n  country: US\ncampaign:\n  assistant: { name: Demo assistant }\n  dialer: { id: dlr_demo }\n`,
    );
    const env = { ...embeddedEnv(home, `vcw-test-${randomBytes(4).toString("hex")}`), VCW_HTTP_ADDR: "off" };

    // Nothing runs: a worker never starts a simulator of its own, and makes nothing under the home.
    const alone = await runCli(["worker"], env, 30_000);
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain(
      `VCS_BASE_URL is not set and no embedded simulator runs under ${join(home, ".vcw")} (\`vcw start\` runs one); a worker never starts its own`,
    );
    expect(existsSync(join(home, ".vcw", "simulator.key"))).toBe(false);
    const offline = await runCli(["jobs", "check"], env, 30_000, home);
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stderr).toMatch(
      /note .*named\.yaml: disclosure not checked: the assistant is on the service, and VCS_BASE_URL is not set and no embedded simulator runs under .*\(offline\)/,
    );
    expect(existsSync(join(home, ".vcw", "simulator.address.json"))).toBe(false);

    await runningVcw(["start"], env, "vcw daemon running");
    const worker = await runningVcw(["worker"], env, "vcw worker running");
    expect(worker.logs()).toContain("embedded simulator joined");
    expect(worker.logs()).not.toContain("embedded simulator started");
    // jobs check reads the demo assistant from the running simulator: its greeting says no AI.
    const joined = await runCli(["jobs", "check"], env, 30_000, home);
    expect(joined.stderr).toMatch(
      /warn .*named\.yaml: campaign\.assistant: assistant "Demo assistant" does not say/,
    );
    expect(joined.stderr).not.toContain("offline");
  }, 120_000);
});

describe("processes taking the embedded simulator at the same moment", () => {
  it("start one simulator: the others wait for it and join it, past a record a dead process left", async () => {
    const home = join(tempDir("vcw-embedded-race-"), ".vcw");
    mkdirSync(home);
    // A record of a process that died: every starter finds it stale, and one at a time takes it over.
    const dead = spawn(process.execPath, ["-e", ""]);
    await new Promise((r) => dead.once("exit", r));
    const stale = { pid: dead.pid, url: "http://127.0.0.1:9", apiKey: "gone" };
    writeFileSync(embeddedRecordOf(home), JSON.stringify(stale), { mode: 0o600 });
    const child = fileURLToPath(new URL("../support/embedded-simulator-child.ts", import.meta.url));
    const runTs = fileURLToPath(new URL("../../bin/run-ts.js", import.meta.url));
    const children = Array.from({ length: 4 }, () => {
      const p = spawn(process.execPath, [runTs, child, home], { stdio: ["pipe", "pipe", "inherit"] });
      let out = "";
      p.stdout.on("data", (b: Buffer) => {
        out += b.toString();
      });
      return { p, out: () => out, exited: new Promise((r) => p.once("exit", r)) };
    });
    try {
      const lines = await waitFor(
        () => {
          const all = children.map((c) => c.out().trim());
          return all.every((l) => l.length > 0) ? all : undefined;
        },
        30_000,
        "every child's simulator",
      );
      // Before the exclusive claim, each process saw no record and started its own.
      expect(lines.filter((l) => l.startsWith("started"))).toHaveLength(1);
      expect(new Set(lines.map((l) => l.split(" ")[1])).size).toBe(1);
    } finally {
      for (const c of children) c.p.stdin.end();
      await Promise.all(children.map((c) => c.exited));
    }
    expect(existsSync(embeddedRecordOf(home))).toBe(false);
  }, 60_000);
});
