import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { embeddedKeyFileOf } from "../../src/daemon/embedded-key.ts";
import { embeddedRecordOf } from "../../src/daemon/embedded-simulator.ts";
import { redisRecordOf, resolveRedis } from "../../src/daemon/redis-connection.ts";
import { freePort } from "../../src/daemon/redis-server.ts";
import { runCli } from "../support/cli.ts";
import { contactsCsv, writeJob } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";

const asRoot = process.getuid?.() === 0;
/** A user other than this one (nobody), for files only root can give away. */
const OTHER_UID = 65534;

/**
 * A listener on loopback that answers every request as a calling service would (200, an empty list)
 * and keeps what it was sent: where a record an attacker wrote points.
 */
const seen: { url: string; key: string | undefined; body: string }[] = [];
const keyOf = (h: IncomingHttpHeaders) => (typeof h["x-api-key"] === "string" ? h["x-api-key"] : undefined);
const listener = createServer((req, res) => {
  let body = "";
  req.on("data", (d) => {
    body += String(d);
  });
  req.on("end", () => {
    seen.push({ url: req.url ?? "", key: keyOf(req.headers), body });
    res.writeHead(200, { "content-type": "application/json" }).end("[]");
  });
});
let listenerUrl = "";
beforeAll(async () => {
  await new Promise<void>((r) => listener.listen(0, "127.0.0.1", r));
  listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/api/v1`;
});
afterAll(() => new Promise<void>((r) => listener.close(() => r())));

/** A pid no process has: one that ran and exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((r) => child.once("exit", r));
  return child.pid!;
}

/** A project on embedded defaults (no VCS_BASE_URL, no VCS_API_KEY), its home private, a job and a file to import. */
function project() {
  const dir = tempDir("vcw-trust-");
  const home = join(dir, ".vcw");
  mkdirSync(home, { mode: 0o700 });
  writeJob(join(dir, "jobs"), "trust", join(dir, "inbox"));
  const csv = join(dir, "people.csv");
  writeFileSync(csv, contactsCsv(5));
  const env: NodeJS.ProcessEnv = {
    REDIS_URL: inject("redisUrl"),
    VCW_JOBS_DIR: join(dir, "jobs"),
    VCW_HOME: home,
    VCW_PREFIX: `vcw-test-${randomBytes(4).toString("hex")}`,
    VCS_BASE_URL: "",
    VCS_API_KEY: "",
  };
  return { dir, home, csv, env, record: embeddedRecordOf(home) };
}

/** The record of the issue: a live pid, the listener's address and a key of the attacker's choosing. */
const attackRecord = (pid = 1) => `${JSON.stringify({ pid, url: listenerUrl, apiKey: "attacker-key" })}\n`;

describe("the embedded simulator's record is trusted only when vcw alone could have written it", () => {
  it("a record linked to the attacker's (issue 43): `vcw import` refuses, naming the file and the check, and sends nothing", async () => {
    const p = project();
    const elsewhere = join(tempDir("vcw-attacker-"), "record.json");
    writeFileSync(elsewhere, attackRecord(), { mode: 0o600 });
    symlinkSync(elsewhere, p.record);
    const before = seen.length;
    const r = await runCli(["import", p.csv, "--job", "trust"], p.env, 60_000, p.dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${p.record} is not trusted: it is a symbolic link (vcw follows none: remove the link)`,
    );
    expect(seen.length).toBe(before);
  }, 90_000);

  it.skipIf(!asRoot)(
    "a record another user owns (as root: chowned to nobody) is refused, and nothing is sent",
    async () => {
      const p = project();
      writeFileSync(p.record, attackRecord(process.pid), { mode: 0o600 });
      chownSync(p.record, OTHER_UID, OTHER_UID);
      const before = seen.length;
      const r = await runCli(["api", "segments.list"], p.env, 60_000, p.dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `${p.record} is not trusted: it belongs to uid ${OTHER_UID}, not to this user (uid 0): remove it`,
      );
      expect(seen.length).toBe(before);
    },
    90_000,
  );

  it("a group-readable record (0640) is refused, and nothing is sent", async () => {
    const p = project();
    writeFileSync(p.record, attackRecord(process.pid), { mode: 0o600 });
    chmodSync(p.record, 0o640);
    const before = seen.length;
    const r = await runCli(["api", "segments.list"], p.env, 60_000, p.dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${p.record} is not trusted: its mode is 0640: others may read or write it`);
    expect(seen.length).toBe(before);
  }, 90_000);

  it("a record whose address is off the loopback interface is refused", async () => {
    const p = project();
    writeFileSync(p.record, `${JSON.stringify({ pid: process.pid, url: "http://10.9.8.7/api/v1" })}\n`, {
      mode: 0o600,
    });
    const r = await runCli(["api", "segments.list"], p.env, 60_000, p.dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${p.record} is not trusted: its address "http://10.9.8.7/api/v1" is not on the loopback interface`,
    );
  }, 90_000);

  it("a home others may write in is refused: anyone could have put the record there", async () => {
    const p = project();
    chmodSync(p.home, 0o777);
    const r = await runCli(["api", "segments.list"], p.env, 60_000, p.dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${p.home} is not trusted: the folder's mode is 0777: others may write in it`);
  }, 90_000);

  it("a record of a dead process is not joined: vcw starts its own simulator, says why, and sends the record's address nothing", async () => {
    const p = project();
    const pid = await deadPid();
    writeFileSync(p.record, attackRecord(pid), { mode: 0o600 });
    const before = seen.length;
    const r = await runCli(["api", "segments.list"], p.env, 60_000, p.dir);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(r.stderr).toContain(`${p.record} was replaced: its process (pid ${pid}) is not running`);
    expect(seen.length).toBe(before);
  }, 90_000);

  it("the key sent is vcw's own, never the record's: the home's simulator.key, or VCS_API_KEY when set", async () => {
    const p = project();
    // A record only this user could have written, of a live process: joined, with our key.
    writeFileSync(p.record, attackRecord(process.pid), { mode: 0o600 });
    const before = seen.length;
    const r = await runCli(["api", "segments.list"], p.env, 60_000, p.dir);
    expect(r.code, r.stderr).toBe(0);
    const homeKey = readFileSync(embeddedKeyFileOf(p.home), "utf8").trim();
    expect(statSync(embeddedKeyFileOf(p.home)).mode & 0o777).toBe(0o600);
    const sent = seen.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent.map((s) => s.key))).toEqual(new Set([homeKey]));

    const given = await runCli(["api", "segments.list"], { ...p.env, VCS_API_KEY: "k-given" }, 60_000, p.dir);
    expect(given.code, given.stderr).toBe(0);
    expect(seen.at(-1)?.key).toBe("k-given");
    expect(seen.some((s) => s.key === "attacker-key")).toBe(false);
  }, 90_000);
});

describe("redis.json is trusted only when vcw alone could have written it", () => {
  const auto = {
    redisUrl: { value: undefined, source: "default" },
    redisCluster: { value: undefined, source: "default" },
  };
  /** A home whose default Redis URL answers nothing, so the private redis-server's record is read. */
  async function redisHome(record: string, mode = 0o600) {
    const home = tempDir("vcw-trust-redis-");
    writeFileSync(redisRecordOf(home), record, { mode });
    return { home, silentDefault: `redis://127.0.0.1:${await freePort()}` };
  }
  const liveRecord = () => `${JSON.stringify({ url: inject("redisUrl"), pid: process.pid })}\n`;

  it("a linked record is refused", async () => {
    const { home, silentDefault } = await redisHome(liveRecord());
    const elsewhere = join(tempDir("vcw-attacker-"), "redis.json");
    writeFileSync(elsewhere, liveRecord(), { mode: 0o600 });
    const record = redisRecordOf(home);
    rmSync(record);
    symlinkSync(elsewhere, record);
    await expect(resolveRedis(auto, home, silentDefault)).rejects.toThrow(
      `${record} is not trusted: it is a symbolic link`,
    );
  });

  it.skipIf(!asRoot)("a record another user owns is refused", async () => {
    const { home, silentDefault } = await redisHome(liveRecord());
    chownSync(redisRecordOf(home), OTHER_UID, OTHER_UID);
    await expect(resolveRedis(auto, home, silentDefault)).rejects.toThrow(
      `${redisRecordOf(home)} is not trusted: it belongs to uid ${OTHER_UID}`,
    );
  });

  it("a group-readable record is refused", async () => {
    const { home, silentDefault } = await redisHome(liveRecord());
    chmodSync(redisRecordOf(home), 0o640);
    await expect(resolveRedis(auto, home, silentDefault)).rejects.toThrow(
      `${redisRecordOf(home)} is not trusted: its mode is 0640`,
    );
  });

  it("a record sending Redis traffic off the machine is refused", async () => {
    const { home, silentDefault } = await redisHome(
      `${JSON.stringify({ url: "redis://10.9.8.7:6379", pid: process.pid })}\n`,
    );
    await expect(resolveRedis(auto, home, silentDefault)).rejects.toThrow(
      `${redisRecordOf(home)} is not trusted: its address "redis://10.9.8.7:6379" is not on the loopback interface`,
    );
  });

  it("a record of a dead process is not used: a private redis-server is started, saying why, and written down 0600", async () => {
    const pid = await deadPid();
    const { home, silentDefault } = await redisHome(`${JSON.stringify({ url: inject("redisUrl"), pid })}\n`);
    const r = await resolveRedis(auto, home, silentDefault);
    try {
      expect(r.server).toBeDefined();
      expect(r.target).not.toEqual({ url: inject("redisUrl") });
      expect(r.source).toContain(`(${redisRecordOf(home)}: its process (pid ${pid}) is not running)`);
      expect(statSync(redisRecordOf(home)).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(redisRecordOf(home), "utf8"))).toEqual({
        url: (r.target as { url: string }).url,
        pid: r.server!.process.pid,
      });
    } finally {
      await r.server?.stop();
    }
  });
});
