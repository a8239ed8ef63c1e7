import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { withTimeout } from "../lib/with-timeout.ts";

export interface RedisServerOptions {
  port?: number;
  /** Working directory of the server (its log and, with `persist`, its data). */
  dir?: string;
  /** Keep data on disk (append-only file) across restarts. */
  persist?: boolean;
  binary?: string;
  /** Requires this password (AUTH); the URL carries it. */
  password?: string;
  /** More arguments, e.g. `--cluster-enabled yes`. */
  extraArgs?: readonly string[];
}

export interface RedisServer {
  url: string;
  port: number;
  process: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts a private `redis-server` and waits until it answers PING. */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const port = options.port ?? (await freePort());
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", ""];
  args.push("--appendonly", options.persist ? "yes" : "no");
  if (options.dir) {
    mkdirSync(options.dir, { recursive: true });
    args.push("--dir", options.dir);
  }
  if (options.password) args.push("--requirepass", options.password);
  args.push(...(options.extraArgs ?? []));
  const child = spawn(options.binary ?? "redis-server", args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += String(d);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const spawnError = new Promise<never>((_, reject) =>
    child.once("error", (e) => reject(new Error(`Cannot start redis-server: ${e.message}`))),
  );
  spawnError.catch(() => undefined);
  const url = `redis://${options.password ? `:${encodeURIComponent(options.password)}@` : ""}127.0.0.1:${port}`;
  await Promise.race([
    waitForRedis(
      url,
      10_000,
      () => child.exitCode !== null,
      () => stderr,
    ),
    spawnError,
  ]);
  return {
    url,
    port,
    process: child,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Resolves once `url` answers PING; rejects after `timeoutMs` or when `gaveUp()` says so. */
export async function waitForRedis(
  url: string,
  timeoutMs: number,
  gaveUp: () => boolean = () => false,
  detail: () => string = () => "",
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await pings(url)) return;
    if (gaveUp() || Date.now() > deadline) {
      throw new Error(`redis-server at ${url} did not start${detail() ? `: ${detail().trim()}` : ""}`);
    }
    await sleep(50);
  }
}

/** True when a Redis server answers PING at `url` within a short time. */
export async function pings(url: string, timeoutMs = 500): Promise<boolean> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: timeoutMs,
    retryStrategy: () => null,
  });
  redis.on("error", () => undefined);
  const answer = async () => {
    await redis.connect();
    return (await redis.ping()) === "PONG";
  };
  try {
    // A server that accepts the connection but never answers must not hang us either.
    return await withTimeout(
      answer().catch(() => false),
      timeoutMs * 2,
      false,
    );
  } finally {
    redis.disconnect();
  }
}
