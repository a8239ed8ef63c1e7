import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { resolveSettings } from "../../src/config/settings.ts";
import { BUCKET_PACKAGES, missingBucketPackage } from "../../src/inbox/bucket/bucket-packages.ts";

describe("bucket inboxes' settings", () => {
  it("the endpoint and region from AWS's variables; path-style on with an endpoint of one's own", () => {
    expect(resolveSettings({}).bucket).toEqual({
      value: { endpoint: undefined, region: undefined, pathStyle: false, scanMs: 10_000 },
      source: "default: AWS S3",
    });
    const local = resolveSettings({
      AWS_ENDPOINT_URL: "http://127.0.0.1:9000/",
      AWS_DEFAULT_REGION: "eu-west-1",
    });
    expect(local.bucket.value).toEqual({
      endpoint: "http://127.0.0.1:9000",
      region: "eu-west-1",
      pathStyle: true,
      scanMs: 10_000,
    });
    const s3 = resolveSettings({
      AWS_ENDPOINT_URL_S3: "https://s3.example.com",
      AWS_ENDPOINT_URL: "http://ignored",
      VCW_S3_PATH_STYLE: "off",
      VCW_BUCKET_SCAN_MS: "2000",
    });
    expect(s3.bucket.value).toMatchObject({
      endpoint: "https://s3.example.com",
      pathStyle: false,
      scanMs: 2000,
    });
    expect(s3.bucket.source).toBe("$AWS_ENDPOINT_URL_S3, $VCW_S3_PATH_STYLE, $VCW_BUCKET_SCAN_MS");
  });

  it("refuses an endpoint with keys in it, and a path style that is not on or off, naming the variable", () => {
    expect(() => resolveSettings({ AWS_ENDPOINT_URL_S3: "http://key:secret@127.0.0.1:9000" })).toThrow(
      "AWS_ENDPOINT_URL_S3 must be an http(s) URL without credentials in it",
    );
    expect(() => resolveSettings({ VCW_S3_PATH_STYLE: "yes" })).toThrow(
      'VCW_S3_PATH_STYLE must be "on" or "off", not "yes"',
    );
  });
});

describe("the AWS SDK of bucket inboxes", () => {
  it("is an optional peer (and a dev dependency), the one the refusal names", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    for (const [name, range] of Object.entries(BUCKET_PACKAGES)) {
      expect(pkg.peerDependencies[name]).toBe(range);
      expect(pkg.peerDependenciesMeta[name]).toEqual({ optional: true });
      expect(pkg.devDependencies[name]).toBe(range);
      expect(pkg.dependencies[name]).toBeUndefined();
    }
  });

  it("missing, it is refused with the line that installs it", () => {
    const error = Object.assign(new Error("Cannot find package '@aws-sdk/client-s3' imported from x"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    expect(missingBucketPackage(error)?.message).toBe(
      "a job's inbox is a bucket, and @aws-sdk/client-s3 is not installed: the AWS SDK is optional (folders need none). Install it beside vcw: npm install @aws-sdk/client-s3@^3.1169.0 @aws-sdk/lib-storage@^3.1169.0",
    );
    expect(missingBucketPackage(new Error("Cannot find package 'other'"))).toBeUndefined();
  });
});
