import { randomBytes } from "node:crypto";
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { afterAll, beforeAll, inject } from "vitest";

/** The AWS variables a vcw process needs to reach the suite's S3 server (its own test keys). */
export function s3Env(): NodeJS.ProcessEnv {
  const s3 = inject("s3");
  return {
    AWS_ENDPOINT_URL_S3: s3.endpoint,
    AWS_ACCESS_KEY_ID: s3.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    AWS_REGION: "us-east-1",
  };
}

/**
 * The suite's S3 server for one test file: a client of its own (to upload, list, read as a CRM
 * or an operator would) and a fresh bucket per call of `bucket()`. The SDK's credential chain reads
 * the process's environment, so the file's in-process daemons find the server's test keys there
 * (set for this file, put back after it), unless `env: false` (a test of the chain itself).
 */
export function useBucket(o: { env?: boolean } = {}) {
  const s3 = inject("s3");
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  const saved: NodeJS.ProcessEnv = {};
  beforeAll(() => {
    if (o.env === false) return;
    for (const [k, v] of Object.entries(s3Env())) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
  });
  afterAll(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    client.destroy();
  });
  const bucket = async () => {
    const name = `vcw-test-${randomBytes(5).toString("hex")}`;
    await client.send(new CreateBucketCommand({ Bucket: name }));
    return name;
  };
  const put = (Bucket: string, Key: string, Body: string | Buffer) =>
    client.send(new PutObjectCommand({ Bucket, Key, Body }));
  const remove = (Bucket: string, Key: string) => client.send(new DeleteObjectCommand({ Bucket, Key }));
  const keys = async (Bucket: string, Prefix = "") => {
    const out: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket, Prefix, ...(token ? { ContinuationToken: token } : {}) }),
      );
      out.push(...(page.Contents ?? []).map((c) => c.Key!));
      token = page.NextContinuationToken;
    } while (token);
    return out.sort();
  };
  const text = async (Bucket: string, Key: string) => {
    const r = await client.send(new GetObjectCommand({ Bucket, Key })).catch(() => undefined);
    return r ? await r.Body!.transformToString() : undefined;
  };
  return { s3, client, bucket, put, remove, keys, text };
}
