import { readSharedRate } from "../../limiter/shared-rate-limiter.ts";
import type { ReadModelSources } from "./sources.ts";

/** The request rate every daemon shares now (req/s), or null before the first request set it. */
export const sharedRate = (src: Pick<ReadModelSources, "redis" | "keys">): Promise<number | null> =>
  readSharedRate(src.redis, src.keys.limiter);
