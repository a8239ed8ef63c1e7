import { BucketError } from "./bucket-errors.ts";

/**
 * What bucket inboxes load, and only when a job has one: optional peer dependencies of vcw, so a
 * consumer's install carries no AWS SDK for a feature it may not use (package.json's
 * `peerDependencies` hold them beside the trace packages: a test compares them). The checkout and
 * the image have them.
 */
export const BUCKET_PACKAGES: Readonly<Record<string, string>> = {
  "@aws-sdk/client-s3": "^3.1169.0",
  "@aws-sdk/lib-storage": "^3.1169.0",
};

/** The command that installs them, as a person types it. */
export const installBucketPackages = () =>
  `npm install ${Object.entries(BUCKET_PACKAGES)
    .map(([name, range]) => `${name}@${range}`)
    .join(" ")}`;

/** A failed import of one of them, as the clear refusal it deserves; anything else is not ours to name. */
export function missingBucketPackage(error: unknown): BucketError | undefined {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return undefined;
  const name = Object.keys(BUCKET_PACKAGES).find(
    (n) => message?.includes(`'${n}`) || message?.includes(`"${n}`),
  );
  if (!name) return undefined;
  return new BucketError(
    `a job's inbox is a bucket, and ${name} is not installed: the AWS SDK is optional (folders need none). Install it beside vcw: ${installBucketPackages()}`,
    "MissingPackage",
    true,
  );
}
