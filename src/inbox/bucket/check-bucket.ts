import { isBucketAddress, parseBucketAddress } from "./bucket-address.ts";
import type { BucketClient } from "./bucket-client.ts";

/**
 * Why a bucket inbox can't be used now (out of reach, not there, not listable with the credentials
 * found), or undefined when its first page lists; a folder's inbox is not looked at here.
 */
export async function bucketInboxProblem(
  client: () => BucketClient,
  inbox: string,
): Promise<string | undefined> {
  if (!isBucketAddress(inbox)) return undefined;
  const address = parseBucketAddress(inbox);
  if ("problem" in address) return address.problem;
  try {
    for await (const _ of client().list(address.bucket, address.prefix)) break;
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
