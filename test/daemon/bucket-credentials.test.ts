import { createServer } from "node:http";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { useBucket } from "../support/bucket.ts";
import { contactsCsv, testSettings, waitFor, writeJob } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { captureLogs } from "../support/log-capture.ts";
import { type S3Proxy, startS3Proxy } from "../support/s3-proxy.ts";
import { useSimulator } from "../support/simulator.ts";

/**
 * Credentials from a role (the ECS container endpoint, as on Fargate), renewed by the SDK: here a
 * local endpoint hands out session tokens, and a proxy in front of the S3 server refuses a token
 * once it is "expired", as AWS does (400 ExpiredToken).
 */
describe("credentials that expire mid-import", () => {
  const t = useSimulator();
  // No keys in the environment: the chain must find the container endpoint's.
  const b = useBucket({ env: false });
  let token = "token-1";
  const expired = new Set<string>();
  let proxy: S3Proxy;
  let endpoint: { close(): void; url: string };
  let daemon: Daemon | undefined;
  const saved = { ...process.env };

  beforeAll(async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          AccessKeyId: b.s3.accessKeyId,
          SecretAccessKey: b.s3.secretAccessKey,
          Token: token,
          Expiration: new Date(Date.now() + 3_600_000).toISOString(),
        }),
      );
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    endpoint = {
      close: () => server.close(),
      url: `http://127.0.0.1:${(server.address() as { port: number }).port}/creds`,
    };
    proxy = await startS3Proxy(b.s3.endpoint, (req) => {
      const sent = String(req.headers["x-amz-security-token"] ?? "");
      return expired.has(sent) ? { status: 400, code: "ExpiredToken" } : undefined;
    });
    for (const k of ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"])
      delete process.env[k];
    process.env.AWS_CONTAINER_CREDENTIALS_FULL_URI = endpoint.url;
  });
  afterEach(async () => {
    await daemon?.close();
    daemon = undefined;
  });
  afterAll(async () => {
    process.env = saved;
    endpoint.close();
    await proxy.close();
  });

  it("renewed once refused, the import goes on; refused for good meanwhile, it waits, loses nothing and says why without the secret", async () => {
    const bucket = await b.bucket();
    const home = tempDir("vcw-creds-");
    writeJob(join(home, "jobs"), "crm", `s3://${bucket}/crm/`);
    const logs = captureLogs();
    daemon = await startDaemon({
      // Listings every 100 ms (not 10 s), so the test takes seconds; 100 creates a second, so the
      // token expires mid-import; attempts enough for the refusals (with 5, a failed job waits for
      // the rescan, a minute).
      settings: testSettings(home, t.sim.url, {
        AWS_ENDPOINT_URL_S3: proxy.endpoint,
        AWS_REGION: "us-east-1",
        VCW_BUCKET_SCAN_MS: "100",
        VCW_RATE_LIMIT: "100",
        VCW_IMPORT_ATTEMPTS: "20",
      }),
      logger: logs.logger,
      watch: true,
      work: true,
    });
    await daemon.ready;
    await b.put(bucket, "crm/leads.csv", contactsCsv(300, { from: 40_000 }));
    const segment = await waitFor(
      () => t.sim.store.list("segments").find((s) => String(s.fields.name).startsWith("seg-crm"))?.id,
      30_000,
      "the segment",
    );
    await waitFor(
      () => (t.sim.store.contactsOf(segment).length >= 50 ? true : undefined),
      30_000,
      "50 contacts",
    );
    // The token expires, and the endpoint still hands it out: every bucket call is refused.
    expired.add("token-1");
    await waitFor(
      () => (logs.text().includes("refused the credentials (ExpiredToken)") ? true : undefined),
      60_000,
      "the refusal said",
    );
    // The role's endpoint has a fresh token: the next call renews and goes on.
    token = "token-2";
    const key = await waitFor(
      async () => (await b.keys(bucket, "crm/done/")).find((k) => k.endsWith("leads.csv.summary.json")),
      60_000,
      "leads.csv in done/",
    );
    expect(JSON.parse((await b.text(bucket, key))!)).toMatchObject({
      status: "imported",
      totals: { valid: 300 },
    });
    const phones = t.sim.store.contactsOf(segment).map((c) => String(c.fields.phone));
    expect(phones).toHaveLength(300);
    expect(new Set(phones).size).toBe(300);
    // The summary is written first, the object moved last.
    await waitFor(
      async () => ((await b.keys(bucket, "crm/processing/")).length === 0 ? true : undefined),
      30_000,
      "processing/ emptied",
    );
    expect(logs.text()).not.toContain(b.s3.secretAccessKey);
    expect(logs.text()).not.toMatch(/token-[12]/);
  }, 120_000);
});
