import type { RedisKeys } from "../../src/lib/redis-keys.ts";

/** The Redis keys of a campaign's create (stores/create-memo.ts): tests write them to set a scene. */
export function campaignCreateKeys(keys: RedisKeys, key: string) {
  const memo = keys.campaignMemo(key);
  return { memo, sent: keys.sentOf(memo), lock: keys.lockOf(memo) };
}
