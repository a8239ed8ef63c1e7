import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { tempDir } from "../support/files.ts";

/**
 * docker-compose.yml run as Compose runs it, without a Docker engine: each service's command,
 * environment (interpolated from the host's), volumes and healthcheck as the file states them, in
 * depends_on order, each "container" a folder of its own standing for /app. What a container
 * network gives is translated: a service's name and port become 127.0.0.1 and a free port; a
 * wildcard address, loopback. The image's entrypoint (`node dist/src/cli/bin.js`) is the checkout's
 * `bin/vcw.js` (the same CLI, from the sources); redis:7-alpine is the machine's redis-server.
 */
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
type Cmd = string | string[];
interface Service {
  command?: Cmd;
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}
const compose = parse(readFileSync(join(ROOT, "docker-compose.yml"), "utf8"), { merge: true }) as {
  services: Record<string, Service>;
};
const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");

/** The host's environment as Compose reads it for `${VAR}`, `${VAR:-default}` and `${VAR:?error}`. */
const HOST_ENV: Record<string, string> = { VCW_HTTP_TOKEN: "compose-test-token-0123456789abcdef" };
function interpolate(value: string): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g, (_, name, op, arg) => {
    const v = HOST_ENV[name];
    if (op === ":-") return v || arg;
    if (op === "-") return v ?? arg;
    if (op?.endsWith("?") && !v) throw new Error(`compose: ${name}: ${arg}`);
    return v ?? "";
  });
}

/** The runtime image's ENV lines (the final stage: after its last FROM). */
const IMAGE_ENV = Object.fromEntries(
  [...dockerfile.slice(dockerfile.lastIndexOf("\nFROM ")).matchAll(/^ENV (\w+)=(\S+)$/gm)].map((m) => [
    m[1]!,
    m[2]!,
  ]),
);
const ENTRYPOINT = JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(dockerfile)![1]!) as string[];

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** The port each service listens on in its container: redis' default, the others' as the file says. */
function containerPort(name: string, s: Service): number {
  if (name === "redis") return 6379;
  const flag = (Array.isArray(s.command) ? s.command : []).find((a) => a.startsWith("--port="));
  if (flag) return Number(flag.slice("--port=".length));
  return Number(/:(\d+)$/.exec(s.environment?.VCW_HTTP_ADDR ?? "")?.[1] ?? 9400);
}

describe("docker compose, run as the file runs it", () => {
  const work = tempDir("vcw-compose-");
  const project = join(work, "project");
  const running: { name: string; child: ChildProcess; log: () => string }[] = [];
  afterAll(async () => {
    for (const { child } of running.reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      await once(child, "exit");
      clearTimeout(killer);
    }
  }, 60_000);

  it("publishes no Redis on the host: the host's own 6379 is left alone", () => {
    for (const [name, s] of Object.entries(compose.services))
      for (const p of s.ports ?? []) expect(`${name}: ${p}`).not.toMatch(/(^|:)6379:\d+$/);
    expect(compose.services.redis!.ports).toBeUndefined();
  });

  it("runs the example end to end: the sample imported, its campaigns on the simulator's demo assistant, results written", async () => {
    const names = Object.keys(compose.services);
    const ports = new Map<string, [number, number]>();
    for (const name of names)
      ports.set(name, [containerPort(name, compose.services[name]!), await freePort()]);
    const volumes = join(work, "volumes");
    const appOf = (name: string) => join(work, `app-${name}`);
    const rewrite = (name: string, text: string) => {
      let out = text.replaceAll("/app/", `${appOf(name)}/`);
      for (const [other, [inside, host]] of ports) {
        if (other === name) {
          out = out
            .replaceAll(`0.0.0.0:${inside}`, `127.0.0.1:${host}`)
            .replaceAll(`127.0.0.1:${inside}`, `127.0.0.1:${host}`)
            .replaceAll(`--port=${inside}`, `--port=${host}`)
            .replaceAll("--host=0.0.0.0", "--host=127.0.0.1");
        } else out = out.replaceAll(`${other}:${inside}`, `127.0.0.1:${host}`);
      }
      return out;
    };

    /** The container's /app: the image's files, then the service's volumes mounted over them. */
    function container(name: string, s: Service): string {
      const app = appOf(name);
      mkdirSync(app, { recursive: true });
      symlinkSync(join(ROOT, "bin"), join(app, "bin"));
      symlinkSync(join(ROOT, "jobs"), join(app, "jobs"));
      for (const dir of ["inbox", "reports", ".vcw"]) mkdirSync(join(app, dir), { recursive: true });
      for (const volume of s.volumes ?? []) {
        const [source, target] = volume.split(":") as [string, string];
        const from = source.startsWith("./")
          ? join(source === "./jobs" ? ROOT : project, source)
          : join(volumes, source);
        mkdirSync(from, { recursive: true });
        const at = target.startsWith("/app/") ? join(app, target.slice("/app/".length)) : join(app, "data");
        rmSync(at, { recursive: true, force: true });
        symlinkSync(from, at);
      }
      return app;
    }

    function command(name: string, s: Service): [string, string[]] {
      const args = (typeof s.command === "string" ? s.command.split(" ") : (s.command ?? [])).map((a) =>
        rewrite(name, a),
      );
      if (name === "redis") {
        const [host, data] = [ports.get(name)![1], join(appOf(name), "data")];
        return [args[0]!, [...args.slice(1), "--port", String(host), "--bind", "127.0.0.1", "--dir", data]];
      }
      expect(ENTRYPOINT).toEqual(["node", "dist/src/cli/bin.js"]);
      return [process.execPath, [join(ROOT, "bin", "vcw.js"), ...args]];
    }

    const envOf = (name: string, s: Service) => ({
      PATH: process.env.PATH ?? "",
      HOME: appOf(name),
      ...IMAGE_ENV,
      ...Object.fromEntries(
        Object.entries(s.environment ?? {}).map(([k, v]) => [k, rewrite(name, interpolate(String(v)))]),
      ),
    });

    async function healthy(name: string, s: Service): Promise<void> {
      const test = s.healthcheck?.test;
      if (!test) return;
      expect(test[0]).toBe("CMD");
      let [file, ...args] = test.slice(1).map((a) => rewrite(name, a));
      if (file === "node") file = process.execPath;
      if (file === "redis-cli") args = ["-p", String(ports.get(name)![1]), ...args];
      const deadline = Date.now() + 90_000;
      for (;;) {
        const ok = await new Promise<boolean>((resolve) =>
          execFile(file!, args, { cwd: appOf(name), env: envOf(name, s), timeout: 5_000 }, (e) =>
            resolve(!e),
          ),
        );
        if (ok) return;
        const r = running.find((x) => x.name === name)!;
        if (r.child.exitCode !== null) throw new Error(`${name} exited: ${r.log()}`);
        if (Date.now() > deadline) throw new Error(`${name} never became healthy: ${r.log()}`);
        await sleep(500);
      }
    }

    // depends_on order: a service starts once those it depends on are healthy.
    const started = new Set<string>();
    while (started.size < names.length) {
      const ready = names.filter(
        (n) =>
          !started.has(n) && Object.keys(compose.services[n]!.depends_on ?? {}).every((d) => started.has(d)),
      );
      expect(ready.length, "a depends_on cycle").toBeGreaterThan(0);
      for (const name of ready) {
        const s = compose.services[name]!;
        for (const [dep, { condition }] of Object.entries(s.depends_on ?? {}))
          expect(`${name} -> ${dep}: ${condition}`).toBe(`${name} -> ${dep}: service_healthy`);
        const cwd = container(name, s);
        const [file, args] = command(name, s);
        const child = spawn(file, args, { cwd, env: envOf(name, s), stdio: ["ignore", "pipe", "pipe"] });
        let log = "";
        child.stdout!.on("data", (d) => (log += d));
        child.stderr!.on("data", (d) => (log += d));
        running.push({ name, child, log: () => log });
      }
      await Promise.all(ready.map((name) => healthy(name, compose.services[name]!)));
      for (const name of ready) started.add(name);
    }

    // The quick start, through the stack: the sample dropped into the inbox the host shares.
    const inbox = join(project, "inbox", "example-leads");
    mkdirSync(inbox, { recursive: true });
    copyFileSync(join(ROOT, "jobs", "samples", "example-leads.csv"), join(inbox, ".example-leads.csv.part"));
    renameSync(join(inbox, ".example-leads.csv.part"), join(inbox, "example-leads.csv"));
    const log = () => running.map((r) => `--- ${r.name}\n${r.log()}`).join("\n");
    const until = async <T>(
      what: string,
      ms: number,
      check: () => T | undefined | Promise<T | undefined>,
    ) => {
      const deadline = Date.now() + ms;
      for (;;) {
        const value = await check();
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${log()}`);
        await sleep(500);
      }
    };
    const summary = await until("the sample in done/", 60_000, () => {
      const done = join(inbox, "done");
      const name = existsSync(done)
        ? readdirSync(done).find((f) => f.endsWith("example-leads.csv.summary.json"))
        : undefined;
      return name ? JSON.parse(readFileSync(join(done, name), "utf8")) : undefined;
    });
    expect(summary).toMatchObject({ status: "imported", created: 6 });

    const simulator = `http://127.0.0.1:${ports.get("simulator")![1]}/api/v1`;
    const campaigns = await until("the sample's campaigns on the simulator", 90_000, async () => {
      const r = await fetch(`${simulator}/campaign/list`, { headers: { "x-api-key": "dev-key" } });
      const list = (await r.json()) as { assistant_name?: string; dialer_name?: string }[];
      return list.length >= 2 ? list : undefined;
    });
    for (const c of campaigns)
      expect([c.assistant_name, c.dialer_name]).toEqual(["Demo assistant", "Demo line"]);
    // At any hour one of the two zones (California, London) opens within 3 hours: 3 minutes at 60x.
    const results = await until("a campaign's results in the shared reports volume", 420_000, () => {
      const dir = join(volumes, "reports");
      const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".results.csv")) : [];
      return files.length > 0 ? files : undefined;
    });
    expect(results.length).toBeGreaterThan(0);
    expect(log()).not.toMatch(/"level":50|campaign failed|could not create/i);
  }, 660_000);
});
