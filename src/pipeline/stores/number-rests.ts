import type { RedisClient } from "../../lib/redis.ts";
import type { RedisKeys } from "../../lib/redis-keys.ts";

/** Why a number rests, as it was found: its figures and the pool's. */
export interface RestFigures {
  number: string;
  calls: number;
  answerRate: number;
  shortRate: number;
  poolAnswerRate: number;
  z: number;
  /** When the rest began and ends (epoch ms). */
  since: number;
  until: number;
}

/**
 * Pool numbers resting, shared by every job and worker: one key per number that expires when its rest
 * ends; a number already resting is not rested again (its end stays).
 */
export function createNumberRests(redis: RedisClient, keys: RedisKeys) {
  return {
    /** Rests `f.number` until `f.until`, unless it rests already. */
    async rest(f: RestFigures): Promise<void> {
      const ms = f.until - f.since;
      if (ms > 0) await redis.set(keys.dialerRest(f.number), JSON.stringify(f), "PX", ms, "NX");
    },
    /** The numbers of `numbers` resting now, with their figures. */
    async resting(numbers: readonly string[]): Promise<Map<string, RestFigures>> {
      const found = new Map<string, RestFigures>();
      for (const n of numbers) {
        const raw = await redis.get(keys.dialerRest(n));
        if (raw) found.set(n, JSON.parse(raw) as RestFigures);
      }
      return found;
    },
  };
}

export type NumberRests = ReturnType<typeof createNumberRests>;
