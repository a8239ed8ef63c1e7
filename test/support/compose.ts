import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parse } from "yaml";

/**
 * docker-compose.yml run as Compose runs it, without a Docker engine: each service's command,
 * environment (interpolated from the host's), volumes and healthcheck as the file states them, in
 * depends_on order, each "container" a folder of its own standing for /app. What a container
 * network gives is translated: a service's name and port become 127.0.0.1 and a free port; a
 * wildcard address, loopback. The image's entrypoint (`node dist/src/cli/bin.js`) is the checkout's
 * `bin/vcw.js` (the same CLI, from the sources); redis:7-alpine is the machine's redis-server.
 */
export interface ComposeService {
  command?: string | string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  /** The runtime image's ENV lines and ENTRYPOINT (the Dockerfile's last stage). */
  imageEnv: Record<string, string>;
  entrypoint: string[];
}

export function readCompose(root: string): ComposeFile {
  const file = parse(readFileSync(join(root, "docker-compose.yml"), "utf8"), { merge: true }) as ComposeFile;
  const dockerfile = readFileSync(join(root, "Dockerfile"), "utf8");
  const last = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
  return {
    services: file.services,
    imageEnv: Object.fromEntries([...last.matchAll(/^ENV (\w+)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!])),
    entrypoint: JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(dockerfile)![1]!) as string[],
  };
}

/** `${VAR}`, `${VAR:-default}`, `${VAR-default}` and `${VAR:?error}` from the host's environment. */
export function interpolate(value: string, host: Record<string, string | undefined>): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g, (_, name, op, arg) => {
    const v = host[name];
    if (op === ":-") return v || arg;
    if (op === "-") return v ?? arg;
    if (op?.endsWith("?") && !v) throw new Error(`compose: ${name}: ${arg}`);
    return v ?? "";
  });
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** The port a service listens on in its container: redis' default, the others' as the file says. */
function containerPort(name: string, s: ComposeService): number {
  if (name === "redis") return 6379;
  const flag = (Array.isArray(s.command) ? s.command : []).find((a) => a.startsWith("--port="));
  if (flag) return Number(flag.slice("--port=".length));
  return Number(/:(\d+)$/.exec(s.environment?.VCW_HTTP_ADDR ?? "")?.[1] ?? 9400);
}

export interface Stack {
  /** The host folder the compose file's `./` paths are in (`./inbox`). */
  project: string;
  /** Named volumes, a folder each. */
  volume(name: string): string;
  /** The host port a service's container port is reached on. */
  port(service: string): number;
  log(): string;
  stop(): Promise<void>;
}

/** Starts every service of `compose` in depends_on order, each once the ones it depends on are healthy. */
export async function startStack(o: {
  root: string;
  work: string;
  compose: ComposeFile;
  host: Record<string, string>;
  /** Settings a test sets in every service besides the file's (after them, so they win). */
  env?: Record<string, string>;
}): Promise<Stack> {
  const { root, work, compose } = o;
  const names = Object.keys(compose.services);
  const ports = new Map<string, [number, number]>();
  for (const name of names) ports.set(name, [containerPort(name, compose.services[name]!), await freePort()]);
  const project = join(work, "project");
  const volumes = join(work, "volumes");
  const appOf = (name: string) => join(work, `app-${name}`);
  const running: { name: string; child: ChildProcess; log: () => string }[] = [];

  const rewrite = (name: string, text: string) => {
    let out = text.replaceAll("/app/", `${appOf(name)}/`);
    for (const [other, [inside, host]] of ports) {
      if (other !== name) out = out.replaceAll(`${other}:${inside}`, `127.0.0.1:${host}`);
      else
        out = out
          .replaceAll(`0.0.0.0:${inside}`, `127.0.0.1:${host}`)
          .replaceAll(`127.0.0.1:${inside}`, `127.0.0.1:${host}`)
          .replaceAll(`--port=${inside}`, `--port=${host}`)
          .replaceAll("--host=0.0.0.0", "--host=127.0.0.1");
    }
    return out;
  };

  /** The container's /app: the image's files and folders, then the service's volumes mounted over them. */
  function container(name: string, s: ComposeService): string {
    const app = appOf(name);
    mkdirSync(app, { recursive: true });
    symlinkSync(join(root, "bin"), join(app, "bin"));
    symlinkSync(join(root, "jobs"), join(app, "jobs"));
    for (const dir of ["inbox", "reports", ".vcw"]) mkdirSync(join(app, dir), { recursive: true });
    for (const volume of s.volumes ?? []) {
      const [source, target] = volume.split(":") as [string, string];
      const from = source.startsWith("./")
        ? join(source === "./jobs" ? root : project, source)
        : join(volumes, source);
      mkdirSync(from, { recursive: true });
      const at = target.startsWith("/app/") ? join(app, target.slice("/app/".length)) : join(app, "data");
      rmSync(at, { recursive: true, force: true });
      symlinkSync(from, at);
    }
    return app;
  }

  function command(name: string, s: ComposeService): [string, string[]] {
    const args = (typeof s.command === "string" ? s.command.split(" ") : (s.command ?? [])).map((a) =>
      rewrite(name, a),
    );
    if (name === "redis") {
      const [host, data] = [ports.get(name)![1], join(appOf(name), "data")];
      return [args[0]!, [...args.slice(1), "--port", String(host), "--bind", "127.0.0.1", "--dir", data]];
    }
    if (compose.entrypoint.join(" ") !== "node dist/src/cli/bin.js")
      throw new Error(`the image's entrypoint changed: ${compose.entrypoint.join(" ")}`);
    return [process.execPath, [join(root, "bin", "vcw.js"), ...args]];
  }

  const envOf = (name: string, s: ComposeService) => ({
    PATH: process.env.PATH ?? "",
    HOME: appOf(name),
    ...compose.imageEnv,
    ...Object.fromEntries(
      Object.entries(s.environment ?? {}).map(([k, v]) => [k, rewrite(name, interpolate(String(v), o.host))]),
    ),
    ...o.env,
  });

  async function healthy(name: string, s: ComposeService): Promise<void> {
    const test = s.healthcheck?.test;
    if (!test) return;
    if (test[0] !== "CMD") throw new Error(`${name}: healthcheck ${test[0]} is not run here`);
    let [file, ...args] = test.slice(1).map((a) => rewrite(name, a));
    if (file === "node") file = process.execPath;
    if (file === "redis-cli") args = ["-p", String(ports.get(name)![1]), ...args];
    const r = running.find((x) => x.name === name)!;
    const deadline = Date.now() + 90_000;
    for (;;) {
      const ok = await new Promise<boolean>((resolve) =>
        execFile(file!, args, { cwd: appOf(name), env: envOf(name, s), timeout: 5_000 }, (e) => resolve(!e)),
      );
      if (ok) return;
      if (r.child.exitCode !== null) throw new Error(`${name} exited: ${r.log()}`);
      if (Date.now() > deadline) throw new Error(`${name} never became healthy: ${r.log()}`);
      await sleep(500);
    }
  }

  const stack: Stack = {
    project,
    volume: (name) => join(volumes, name),
    port: (service) => ports.get(service)![1],
    log: () => running.map((r) => `--- ${r.name}\n${r.log()}`).join("\n"),
    stop: async () => {
      for (const { child } of running.reverse()) {
        if (child.exitCode !== null || child.signalCode !== null) continue;
        child.kill("SIGTERM");
        const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
        await once(child, "exit");
        clearTimeout(killer);
      }
    },
  };
  try {
    const started = new Set<string>();
    while (started.size < names.length) {
      const ready = names.filter(
        (n) =>
          !started.has(n) && Object.keys(compose.services[n]!.depends_on ?? {}).every((d) => started.has(d)),
      );
      if (ready.length === 0) throw new Error("compose: a depends_on cycle");
      for (const name of ready) {
        const s = compose.services[name]!;
        for (const [dep, { condition }] of Object.entries(s.depends_on ?? {}))
          if (condition !== "service_healthy")
            throw new Error(`${name} -> ${dep}: ${condition} is not run here`);
        const [file, args] = command(name, s);
        const child = spawn(file, args, {
          cwd: container(name, s),
          env: envOf(name, s),
          stdio: ["ignore", "pipe", "pipe"],
        });
        let log = "";
        child.stdout!.on("data", (d) => (log += d));
        child.stderr!.on("data", (d) => (log += d));
        running.push({ name, child, log: () => log });
      }
      await Promise.all(ready.map((name) => healthy(name, compose.services[name]!)));
      for (const name of ready) started.add(name);
    }
  } catch (error) {
    await stack.stop();
    throw error;
  }
  return stack;
}
