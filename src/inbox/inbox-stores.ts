import type { RedisClient } from "../lib/redis.ts";
import type { RedisKeys } from "../lib/redis-keys.ts";
import { isBucketAddress, parseBucketAddress } from "./bucket/bucket-address.ts";
import { type BucketClient, type BucketSettings, createBucketClient } from "./bucket/bucket-client.ts";
import { bucketInbox } from "./bucket/bucket-inbox.ts";
import { folderInbox } from "./folder-inbox.ts";
import type { InboxStore, InboxStores } from "./inbox-store.ts";

export interface InboxStoresOptions {
  redis: RedisClient;
  keys: RedisKeys;
  bucket: BucketSettings;
  /** Where a bucket's objects are downloaded to be read. */
  downloads: string;
  /** An admitter silent this long is presumed dead (VCW_LOCK_MS). */
  claimMs: number;
}

/**
 * Every job's inbox, built once per process and address: a drop folder, or a bucket prefix (one S3
 * client for all of them, made when the first is asked for). `close` ends the client.
 */
export function createInboxStores(o: InboxStoresOptions): InboxStores & { close(): void } {
  const built = new Map<string, InboxStore>();
  let client: BucketClient | undefined;
  const storeOf = (inbox: string): InboxStore => {
    if (!isBucketAddress(inbox)) return folderInbox(inbox);
    const address = parseBucketAddress(inbox);
    // The job files were checked when loaded (config/job-definition.ts): this is a bug, not a typo.
    if ("problem" in address) throw new Error(`inbox ${inbox}: ${address.problem}`);
    client ??= createBucketClient(o.bucket);
    return bucketInbox(address, {
      client,
      redis: o.redis,
      keys: o.keys,
      downloads: o.downloads,
      claimMs: o.claimMs,
    });
  };
  const stores = (inbox: string) => {
    const store = built.get(inbox) ?? storeOf(inbox);
    built.set(inbox, store);
    return store;
  };
  return Object.assign(stores, { close: () => client?.close() });
}
