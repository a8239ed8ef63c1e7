/** A bucket inbox's address: `s3://bucket/prefix/` (the prefix may be empty: the bucket's top). */
export interface BucketAddress {
  bucket: string;
  /** Ends with `/` unless empty. */
  prefix: string;
}

const SCHEME = "s3://";

/** Whether a job's `inbox` names a bucket prefix rather than a folder. */
export const isBucketAddress = (inbox: string) => inbox.toLowerCase().startsWith(SCHEME);

/** `s3://bucket/prefix/`, the one spelling of an address in logs, pages and Redis. */
export const formatBucketAddress = (a: BucketAddress) => `${SCHEME}${a.bucket}/${a.prefix}`;

/**
 * The bucket and prefix of `s3://bucket/prefix/`, or why it is not one. S3's bucket rules (3 to 63
 * lower-case letters, digits, dots and dashes); a prefix without its closing slash gets one, so
 * `s3://b/leads` and `s3://b/leads/` are the same inbox and `s3://b/leads-old/` is another.
 */
export function parseBucketAddress(text: string): BucketAddress | { problem: string } {
  if (!isBucketAddress(text)) return { problem: `must start with ${SCHEME}` };
  const rest = text.slice(SCHEME.length);
  const slash = rest.indexOf("/");
  const bucket = slash < 0 ? rest : rest.slice(0, slash);
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes(".."))
    return {
      problem: `"${bucket}" is not a bucket name (3 to 63 lower-case letters, digits, dots and dashes)`,
    };
  const raw = slash < 0 ? "" : rest.slice(slash + 1);
  if (raw.startsWith("/") || raw.includes("//"))
    return { problem: "the prefix has an empty part (//): write s3://bucket/some/prefix/" };
  const control = [...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  if (control || raw.includes("\\") || raw.split("/").some((p) => p === "." || p === ".."))
    return { problem: "the prefix has control characters, backslashes, . or .. parts" };
  const prefix = raw === "" || raw.endsWith("/") ? raw : `${raw}/`;
  return { bucket, prefix };
}
