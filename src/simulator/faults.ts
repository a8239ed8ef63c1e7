/** Fault injection: what the simulator does wrong on purpose. Every fault is off by default. */
export interface FaultOptions {
  /** Added to every request. */
  latencyMs: number;
  /** Up to this much more, at random. */
  jitterMs: number;
  /** Requests per second accepted (token bucket, one second of burst); 0 = unlimited. */
  rateLimit: number;
  /** Requests handled at once; more are answered 429. 0 = unlimited. */
  maxInflight: number;
  /** Share of requests answered with a 5xx before anything is applied. */
  errorRate: number;
  /** Share of writes that are applied and then answered with a 500 or a dropped connection. */
  commitThenFailRate: number;
  commitThenFailMode: "500" | "drop" | "mixed";
}

export const NO_FAULTS: FaultOptions = {
  latencyMs: 0,
  jitterMs: 0,
  rateLimit: 0,
  maxInflight: 0,
  errorRate: 0,
  commitThenFailRate: 0,
  commitThenFailMode: "mixed",
};

export type Rejection = { status: 429 | 500 | 502 | 503; message: string; retryAfterSec?: number };

export interface Faults {
  options: FaultOptions;
  /** Called when a request arrives: a rejection, or undefined to go on. Counts it in flight. */
  admit(now: number): Rejection | undefined;
  /** Called when a request admitted by `admit` is done. */
  release(): void;
  delayMs(): number;
  /** A 5xx to answer instead of handling the request. */
  injectedError(): Rejection | undefined;
  /** For a write that was applied: fail its response? */
  commitThenFail(): "500" | "drop" | undefined;
  readonly inflight: number;
}

export function createFaults(options: FaultOptions, random: () => number): Faults {
  let inflight = 0;
  let tokens = options.rateLimit;
  let refilledAt: number | undefined;

  function takeToken(now: number): number | undefined {
    if (options.rateLimit <= 0) return undefined;
    const capacity = Math.max(1, options.rateLimit);
    if (refilledAt !== undefined)
      tokens = Math.min(capacity, tokens + ((now - refilledAt) / 1000) * options.rateLimit);
    refilledAt = now;
    if (tokens >= 1) {
      tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - tokens) / options.rateLimit));
  }

  return {
    options,
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
      const wait = takeToken(now);
      if (wait !== undefined) {
        return {
          status: 429,
          message: `rate limit of ${options.rateLimit} requests per second exceeded`,
          retryAfterSec: wait,
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
