import { VcwError } from "../../lib/vcw-error.ts";

/** A bucket's refusal or absence, said plainly: which call, which object, what to do. Never a credential. */
export class BucketError extends VcwError {
  override name = "BucketError";
  constructor(
    message: string,
    /** The store's code (NoSuchBucket, AccessDenied, SlowDown...) or the network's. */
    readonly code: string,
    /** Retrying can't help until someone acts (a missing bucket, a right not granted). */
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

interface AwsLike {
  name?: string;
  code?: string;
  Code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

const codeOf = (error: unknown): string => {
  const e = error as AwsLike;
  return e?.Code ?? e?.name ?? e?.code ?? "Error";
};
const statusOf = (error: unknown) => (error as AwsLike)?.$metadata?.httpStatusCode;

/** Codes for credentials that expired: renewed once and the call made again (bucket-client.ts). */
const EXPIRED = new Set(["ExpiredToken", "ExpiredTokenException", "TokenRefreshRequired", "RequestExpired"]);
export const isExpiredCredentials = (error: unknown) => EXPIRED.has(codeOf(error));

/** The object (not the bucket) is not there. */
export const isMissing = (error: unknown) => {
  const code = codeOf(error);
  return code === "NoSuchKey" || (code === "NotFound" && statusOf(error) === 404);
};

/** The store refused a condition (If-Match): the object changed since it was looked at. */
export const isChanged = (error: unknown) =>
  codeOf(error) === "PreconditionFailed" || statusOf(error) === 412;

/**
 * `error` of the call `what` on `address` as a BucketError. SDK messages can carry request ids and
 * headers but never the secret key; the access key id is left out too (the code says enough).
 */
export function bucketError(error: unknown, what: string, address: string, endpoint: string): BucketError {
  if (error instanceof BucketError) return error;
  const code = codeOf(error);
  const status = statusOf(error);
  const at = `${what} ${address}`;
  switch (code) {
    case "NoSuchBucket":
      return new BucketError(
        `${at}: the bucket does not exist at ${endpoint} (NoSuchBucket): create it, or fix the job's inbox`,
        code,
        true,
      );
    case "AccessDenied":
    case "AllAccessDisabled":
      return new BucketError(
        `${at}: access denied (${code}): the credentials lack a right on this prefix (the IAM policy in docs/operations.md)`,
        code,
        true,
      );
    case "InvalidAccessKeyId":
    case "SignatureDoesNotMatch":
    case "InvalidToken":
    case "ExpiredToken":
    case "ExpiredTokenException":
      return new BucketError(
        `${at}: the store refused the credentials (${code}): check the AWS credentials vcw finds (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, a role); expired ones were renewed once, in vain`,
        code,
        false,
      );
    case "CredentialsProviderError":
      return new BucketError(
        `${at}: no AWS credentials found (the standard chain: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, SSO, a web identity, a container or instance role)`,
        code,
        true,
      );
    case "SlowDown":
    case "ServiceUnavailable":
    case "ThrottlingException":
      return new BucketError(
        `${at}: the store kept asking vcw to slow down (${code}) after 5 tries with backoff: tried again later`,
        code,
        false,
      );
  }
  const network = (error as AwsLike)?.code;
  if (network && /^E[A-Z]+$/.test(network))
    return new BucketError(`${at}: cannot reach ${endpoint} (${network})`, network, false);
  const said = (error as AwsLike)?.message ?? String(error);
  return new BucketError(`${at}: ${code}${status ? ` (HTTP ${status})` : ""}: ${said}`, code, false);
}
