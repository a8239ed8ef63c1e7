import type { Logger } from "pino";
import type { JobDefinition } from "../../config/job-definition.ts";
import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";
import type { Queues } from "../queues.ts";

/** What an operator's action runs with (runAction and the actions it hands on to). */
export interface ActionContext {
  redis: RedisClient;
  keys: RedisKeys;
  queues: Queues;
  jobs: () => ReadonlyMap<string, JobDefinition>;
  logger: Logger;
}
