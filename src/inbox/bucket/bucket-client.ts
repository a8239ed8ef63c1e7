import type { Readable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";
import { bucketError, isChanged, isExpiredCredentials, isMissing } from "./bucket-errors.ts";
import { missingBucketPackage } from "./bucket-packages.ts";

/** Where the buckets are and how to reach them; credentials come from AWS's own chain, never from here. */
export interface BucketSettings {
  /** An S3-compatible endpoint (MinIO, Ceph, R2...); undefined: AWS's own. */
  endpoint: string | undefined;
  /** undefined: us-east-1, and S3's redirects to the bucket's own region followed. */
  region: string | undefined;
  /** `http://endpoint/bucket/key` rather than `http://bucket.endpoint/key` (most local servers need it). */
  pathStyle: boolean;
  /** How often a bucket inbox is listed. */
  scanMs: number;
}

/** An object as a listing or a HEAD shows it. */
export interface ObjectInfo {
  key: string;
  etag: string;
  bytes: number;
  modifiedMs: number;
  /** User metadata (`x-amz-meta-*`), from a HEAD only. */
  meta?: Record<string, string>;
}

/** The S3 calls a bucket inbox makes, each error said plainly (bucket-errors.ts). */
export interface BucketClient {
  /** The objects directly under `prefix` (a delimiter rolls up its subfolders), every page followed. */
  list(bucket: string, prefix: string): AsyncGenerator<ObjectInfo>;
  head(bucket: string, key: string): Promise<ObjectInfo | undefined>;
  /** The object's bytes from `from` on; undefined when it is not there. */
  get(
    bucket: string,
    key: string,
    o?: { from?: number; ifMatch?: string },
  ): Promise<{ body: Readable; etag: string; bytes: number } | undefined>;
  /** A copy made inside the bucket (`meta`: its user metadata); false when the source is not there. */
  copy(
    bucket: string,
    from: string,
    to: string,
    o?: { ifMatch?: string; meta?: Record<string, string> },
  ): Promise<boolean>;
  /** `ifMatch`: only while the object is still that upload (stores that honour it). */
  delete(bucket: string, key: string, o?: { ifMatch?: string }): Promise<void>;
  /** A small text whole, or a stream (opened again if the call is made again). */
  put(bucket: string, key: string, body: string | (() => Readable)): Promise<void>;
  close(): void;
}

const CONTENT_TYPES: Record<string, string> = { json: "application/json", csv: "text/csv" };

/** The SDK's modules, loaded at the first call (optional peers: bucket-packages.ts). */
async function loadSdk() {
  const [s3, storage] = await Promise.all([
    import("@aws-sdk/client-s3"),
    import("@aws-sdk/lib-storage"),
  ]).catch((error: unknown) => {
    throw missingBucketPackage(error) ?? error;
  });
  return { ...s3, Upload: storage.Upload };
}
type Sdk = Awaited<ReturnType<typeof loadSdk>>;

/**
 * The AWS SDK v3 client (decision 0061): the standard credential chain (environment, profile, SSO,
 * web identity, container and instance roles), the SDK's retries with backoff for 503 SlowDown and
 * 5xx, and credentials renewed once when the bucket says they expired. The SDK is loaded at the
 * first call: a process with no bucket inbox never loads it.
 */
export function createBucketClient(s: BucketSettings): BucketClient {
  let made: Promise<{ sdk: Sdk; s3: S3Client }> | undefined;
  const client = () => {
    made ??= loadSdk().then((sdk) => ({
      sdk,
      s3: new sdk.S3Client({
        ...(s.endpoint ? { endpoint: s.endpoint } : {}),
        region: s.region ?? "us-east-1",
        followRegionRedirects: true,
        forcePathStyle: s.pathStyle,
        maxAttempts: 5,
        requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
      }),
    }));
    return made;
  };
  const where = s.endpoint ?? "AWS S3";
  /** One call; expired credentials are renewed and the call made once more. */
  async function call<T>(
    what: string,
    address: string,
    send: (c: { sdk: Sdk; s3: S3Client }) => Promise<T>,
  ): Promise<T> {
    const c = await client().catch((error: unknown) => {
      throw bucketError(error, what, address, where);
    });
    try {
      return await send(c);
    } catch (error) {
      // An object not there, or changed: the caller's answer, not a failure.
      if (isMissing(error) || isChanged(error)) throw error;
      if (!isExpiredCredentials(error)) throw bucketError(error, what, address, where);
      try {
        await c.s3.config.credentials({ forceRefresh: true });
        return await send(c);
      } catch (again) {
        throw bucketError(again, what, address, where);
      }
    }
  }
  const url = (bucket: string, key: string) => `s3://${bucket}/${key}`;
  return {
    async *list(bucket, prefix) {
      let token: string | undefined;
      do {
        const page = await call("list", url(bucket, prefix), ({ sdk, s3 }) =>
          s3.send(
            new sdk.ListObjectsV2Command({
              Bucket: bucket,
              Prefix: prefix,
              Delimiter: "/",
              ...(token ? { ContinuationToken: token } : {}),
            }),
          ),
        );
        for (const c of page.Contents ?? [])
          if (c.Key !== undefined && c.Key !== prefix)
            yield {
              key: c.Key,
              etag: c.ETag ?? "",
              bytes: c.Size ?? 0,
              modifiedMs: c.LastModified?.getTime() ?? 0,
            };
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async head(bucket, key) {
      try {
        const h = await call("look at", url(bucket, key), ({ sdk, s3 }) =>
          s3.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: key })),
        );
        return {
          key,
          etag: h.ETag ?? "",
          bytes: h.ContentLength ?? 0,
          modifiedMs: h.LastModified?.getTime() ?? 0,
          meta: h.Metadata ?? {},
        };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async get(bucket, key, o = {}) {
      try {
        const r = await call("read", url(bucket, key), ({ sdk, s3 }) =>
          s3.send(
            new sdk.GetObjectCommand({
              Bucket: bucket,
              Key: key,
              ...(o.from ? { Range: `bytes=${o.from}-` } : {}),
              ...(o.ifMatch ? { IfMatch: o.ifMatch } : {}),
            }),
          ),
        );
        const total = /\/(\d+)$/.exec(r.ContentRange ?? "")?.[1];
        return {
          body: r.Body as Readable,
          etag: r.ETag ?? "",
          bytes: total ? Number(total) : (r.ContentLength ?? 0),
        };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async copy(bucket, from, to, o = {}) {
      try {
        await call("copy", url(bucket, from), ({ sdk, s3 }) =>
          s3.send(
            new sdk.CopyObjectCommand({
              Bucket: bucket,
              Key: to,
              CopySource: encodeURI(`${bucket}/${from}`),
              ...(o.ifMatch ? { CopySourceIfMatch: o.ifMatch } : {}),
              ...(o.meta ? { Metadata: o.meta, MetadataDirective: "REPLACE" as const } : {}),
            }),
          ),
        );
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async delete(bucket, key, o = {}) {
      await call("delete", url(bucket, key), ({ sdk, s3 }) =>
        s3.send(
          new sdk.DeleteObjectCommand({
            Bucket: bucket,
            Key: key,
            ...(o.ifMatch ? { IfMatch: o.ifMatch } : {}),
          }),
        ),
      );
    },
    async put(bucket, key, body) {
      const ContentType = CONTENT_TYPES[key.slice(key.lastIndexOf(".") + 1)] ?? "application/octet-stream";
      if (typeof body === "string") {
        await call("write", url(bucket, key), ({ sdk, s3 }) =>
          s3.send(new sdk.PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType })),
        );
        return;
      }
      // A stream of unknown length (an error report): in parts, never held whole.
      await call("write", url(bucket, key), ({ sdk, s3 }) =>
        new sdk.Upload({
          client: s3,
          params: { Bucket: bucket, Key: key, Body: body(), ContentType },
        }).done(),
      );
    },
    close: () =>
      void made?.then(
        ({ s3 }) => s3.destroy(),
        () => undefined,
      ),
  };
}
