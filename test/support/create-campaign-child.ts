/**
 * One worker creating a campaign, to be killed mid-way:
 * `create-campaign-child.ts REDIS_URL PREFIX SERVICE_URL KEY LOCK_MS BODY_JSON`. Prints "sending"
 * once the create is about to go, "done <id>" if it lives that long.
 */
import { Redis } from "ioredis";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createCampaignOnce } from "../../src/pipeline/campaign/create-campaign.ts";
import { createCreateMemo } from "../../src/pipeline/stores/create-memo.ts";
import { testClient } from "./simulator.ts";

const [redisUrl, prefix, url, key, lockMs, body] = process.argv.slice(2);
const redis = new Redis(redisUrl!, { maxRetriesPerRequest: null });
const client = testClient({ url: url! }, { timeoutMs: 60_000 });
const result = await createCampaignOnce(
  client,
  createCreateMemo(redis, redisKeys(prefix!)).campaign(key!),
  JSON.parse(body!),
  {
    lockMs: Number(lockMs),
  },
);
console.log(`done ${result.id}`);
await redis.quit();
