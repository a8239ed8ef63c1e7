import { allowedBetweenMs, checkRateSchedule, limitAt, type RateSchedule } from "./rate-schedule.ts";

/** Fault injection: what the simulator does wrong on purpose. Every fault is off by default. */
export interface FaultOptions {
  /** Added to every request. */
  latencyMs: number;
  /** Up to this much more, at random. */
  jitterMs: number;
  /** Requests per second accepted (token bucket, one second of burst); 0 = unlimited. */
  rateLimit: number;
  /**
   * A limit that moves instead (real seconds since these faults were set: the simulator's start, or
   * the `setFaults` that set the schedule); empty = `rateLimit`. The bucket holds one second of the
   * limit in force.
   */
  rateLimitSchedule: RateSchedule;
  /** Requests handled at once; more are answered 429. 0 = unlimited. */
  maxInflight: number;
  /** Share of requests answered with a 5xx before anything is applied. */
  errorRate: number;
  /** Share of writes that are applied and then answered with a 500 or a dropped connection. */
  commitThenFailRate: number;
  /**
   * How an applied write fails: a 500, a dropped connection, a 200 whose body is an HTML page (a
   * proxy's), or 500 and drop at random.
   */
  commitThenFailMode: "500" | "drop" | "html" | "mixed";
  /** Campaigns whose name holds one of these are refused (400): a service that rejects one campaign. */
  refuseCampaigns: readonly string[];
}

export const NO_FAULTS: FaultOptions = {
  latencyMs: 0,
  jitterMs: 0,
  rateLimit: 0,
  rateLimitSchedule: [],
  maxInflight: 0,
  errorRate: 0,
  commitThenFailRate: 0,
  commitThenFailMode: "mixed",
  refuseCampaigns: [],
};

export type Rejection = { status: 429 | 500 | 502 | 503; message: string; retryAfterSec?: number };

export interface Faults {
  options: FaultOptions;
  /** Epoch ms at which the rate-limit schedule starts. */
  readonly scheduleStartedAt: number;
  /** Called when a request arrives: a rejection, or undefined to go on. Counts it in flight. */
  admit(now: number): Rejection | undefined;
  /** Called when a request admitted by `admit` is done. */
  release(): void;
  delayMs(): number;
  /** A 5xx to answer instead of handling the request. */
  injectedError(): Rejection | undefined;
  /** For a write that was applied: fail its response? */
  commitThenFail(): "500" | "drop" | "html" | undefined;
  readonly inflight: number;
}

/** The schedule the token bucket follows: the moving limit, the fixed one, or none (unlimited). */
function scheduleOf(options: FaultOptions): RateSchedule {
  if (options.rateLimitSchedule.length === 0) {
    return options.rateLimit > 0 ? [{ atSec: 0, perSecond: options.rateLimit }] : [];
  }
  if (options.rateLimit > 0) throw new RangeError("set rateLimit or rateLimitSchedule, not both");
  return checkRateSchedule(options.rateLimitSchedule);
}

export function createFaults(
  options: FaultOptions,
  random: () => number,
  scheduleStartedAt = Date.now(),
): Faults {
  const schedule = scheduleOf(options);
  let inflight = 0;
  let tokens = 0;
  let refilledAtMs: number | undefined;

  /** undefined when admitted; else the limit in force and the seconds until a token is there. */
  function takeToken(now: number): { limit: number; waitSec: number } | undefined {
    if (schedule.length === 0) return undefined;
    const ms = now - scheduleStartedAt;
    const limit = limitAt(schedule, ms / 1000);
    const capacity = Math.max(1, limit);
    // Full at the first request; then refilled by what the schedule allowed since the last one.
    tokens =
      refilledAtMs === undefined
        ? capacity
        : Math.min(capacity, tokens + allowedBetweenMs(schedule, refilledAtMs, ms));
    refilledAtMs = Math.max(ms, refilledAtMs ?? ms);
    if (tokens >= 1) {
      tokens -= 1;
      return undefined;
    }
    return { limit, waitSec: Math.max(1, Math.ceil((1 - tokens) / limit)) };
  }

  return {
    options,
    scheduleStartedAt,
    get inflight() {
      return inflight;
    },
    admit(now) {
      if (options.maxInflight > 0 && inflight >= options.maxInflight) {
        return {
          status: 429,
          message: `too many requests in flight (limit ${options.maxInflight})`,
          retryAfterSec: 1,
        };
      }
      const refused = takeToken(now);
      if (refused) {
        return {
          status: 429,
          message: `rate limit of ${refused.limit} requests per second exceeded`,
          retryAfterSec: refused.waitSec,
        };
      }
      inflight += 1;
      return undefined;
    },
    release() {
      inflight -= 1;
    },
    delayMs: () => options.latencyMs + (options.jitterMs > 0 ? random() * options.jitterMs : 0),
    injectedError() {
      if (options.errorRate <= 0 || random() >= options.errorRate) return undefined;
      const status = ([500, 502, 503] as const)[Math.floor(random() * 3)]!;
      return { status, message: "injected server error" };
    },
    commitThenFail() {
      if (options.commitThenFailRate <= 0 || random() >= options.commitThenFailRate) return undefined;
      if (options.commitThenFailMode !== "mixed") return options.commitThenFailMode;
      return random() < 0.5 ? "500" : "drop";
    },
  };
}
