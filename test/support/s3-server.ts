import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** An S3-compatible server the suite started: where it is and its keys (test keys, no secret of anyone's). */
export interface S3Server {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** "minio" (a container) or "s3rver" (the npm server: no versioning, no conditional requests). */
  kind: "minio" | "s3rver";
  stop(): Promise<void>;
}

/** s3rver's own built-in key pair (its DUMMY_ACCOUNT). */
const S3RVER_KEYS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

/**
 * s3rver (the npm package `npm ci` installs) as a process of its own on a free port of 127.0.0.1,
 * its objects in a fresh temporary folder. The same command the Quick start documents.
 */
export async function startS3rver(): Promise<S3Server> {
  const dir = mkdtempSync(join(tmpdir(), "vcw-s3-"));
  const bin = createRequire(import.meta.url).resolve("s3rver/bin/s3rver.js");
  // s3rver makes its continuation tokens with DES, which OpenSSL 3 keeps in its legacy provider:
  // without it, a listing of more than a page fails with an InternalError.
  const args = ["--openssl-legacy-provider", bin, "-d", dir, "-a", "127.0.0.1", "-p", "0", "-s"];
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let text = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const m = /listening on [^:]+:(\d+)/.exec(text);
      if (m) resolve(Number(m[1]));
    });
    child.once("exit", (code) => reject(new Error(`s3rver exited (${code}) before listening`)));
  });
  child.stdout!.resume();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    ...S3RVER_KEYS,
    kind: "s3rver",
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** MinIO in a container, when a Docker engine answers (testcontainers); undefined otherwise. */
export async function startMinio(): Promise<S3Server | undefined> {
  const { GenericContainer, getContainerRuntimeClient, Wait } = await import("testcontainers");
  try {
    await getContainerRuntimeClient();
  } catch {
    return undefined; // no Docker engine here
  }
  const keys = { accessKeyId: "vcw-test", secretAccessKey: "vcw-test-secret" };
  const container = await new GenericContainer("minio/minio:latest")
    .withCommand(["server", "/data"])
    .withEnvironment({ MINIO_ROOT_USER: keys.accessKeyId, MINIO_ROOT_PASSWORD: keys.secretAccessKey })
    .withExposedPorts(9000)
    .withWaitStrategy(Wait.forHttp("/minio/health/live", 9000))
    .start();
  return {
    endpoint: `http://${container.getHost()}:${container.getMappedPort(9000)}`,
    ...keys,
    kind: "minio",
    stop: async () => {
      await container.stop();
    },
  };
}
