import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, describe, expect, inject, it } from "vitest";
import { spawnVcw, type VcwProcess } from "../support/cli.ts";
import { waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * docs/bucket-inbox.md's "Try it": the documented command starts a local S3 server (s3rver, which
 * `npm ci` installs) with the bucket vcw-inbox, `vcw start` runs the bucket example job
 * (jobs/bucket/), and the sample dropped into the bucket is imported, as the folder Quick start's is.
 */
describe("the Quick start with a bucket", () => {
  const running: VcwProcess[] = [];
  let s3: ChildProcess | undefined;
  afterAll(async () => {
    for (const p of running) p.child.kill("SIGKILL");
    s3?.kill("SIGTERM");
    if (s3 && s3.exitCode === null) await once(s3, "exit");
  });

  it("a local S3 server, the bucket example job, the sample uploaded: imported, moved to done/ with its summary", async () => {
    const home = tempDir("vcw-bucket-quick-");
    // The documented command: NODE_OPTIONS=--openssl-legacy-provider npx s3rver -d .vcw/s3 -p 4569 --configure-bucket vcw-inbox
    const bin = createRequire(import.meta.url).resolve("s3rver/bin/s3rver.js");
    s3 = spawn(
      process.execPath,
      [bin, "-d", join(home, "s3"), "-a", "127.0.0.1", "-p", "0", "--configure-bucket", "vcw-inbox", "-s"],
      {
        env: { ...process.env, NODE_OPTIONS: "--openssl-legacy-provider" },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const endpoint = await new Promise<string>((resolve, reject) => {
      s3!.stdout!.on("data", (d: Buffer) => {
        const m = /listening on ([\d.]+):(\d+)/.exec(String(d));
        if (m) resolve(`http://${m[1]}:${m[2]}`);
      });
      s3!.once("exit", () => reject(new Error("s3rver exited")));
    });
    const keys = { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER" };
    running.push(
      spawnVcw(["start"], {
        REDIS_URL: inject("redisUrl"),
        VCW_PREFIX: `vcw-test-quick-${Date.now()}`,
        VCW_HOME: join(home, ".vcw"),
        VCW_JOBS_DIR: join(ROOT, "jobs", "bucket"),
        AWS_ENDPOINT_URL_S3: endpoint,
        ...keys,
        // Listings every 200 ms (not 10 s), so the test takes seconds.
        VCW_BUCKET_SCAN_MS: "200",
      }),
    );
    const client = new S3Client({
      endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: keys.AWS_ACCESS_KEY_ID, secretAccessKey: keys.AWS_SECRET_ACCESS_KEY },
    });
    await client.send(
      new PutObjectCommand({
        Bucket: "vcw-inbox",
        Key: "example-leads/example-leads.csv",
        Body: readFileSync(join(ROOT, "jobs", "samples", "example-leads.csv")),
      }),
    );
    const key = await waitFor(
      async () => {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: "vcw-inbox", Prefix: "example-leads/done/" }),
        );
        return page.Contents?.map((c) => c.Key!).find((k) => k.endsWith("example-leads.csv.summary.json"));
      },
      90_000,
      "the sample's summary in done/",
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${running[0]!.logs()}`);
    });
    const summary = JSON.parse(
      await (
        await client.send(new GetObjectCommand({ Bucket: "vcw-inbox", Key: key }))
      ).Body!.transformToString(),
    );
    expect(summary).toMatchObject({ status: "imported", created: 6 });
    client.destroy();
  }, 120_000);
});
