/** How fast all workers together may call the service. */
export type RateLimitOptions =
  | {
      /** Exactly `perSecond` requests per second, shared by every worker. */
      mode: "fixed";
      perSecond: number;
    }
  | {
      /**
       * Finds the service's limit: slow start (about ×2.7 a second) until the first 429, then
       * additive increase and multiplicative decrease on 429s, timeouts and rising latency.
       */
      mode: "adaptive";
      /** Starting rate, requests per second. */
      initial: number;
      min: number;
      max: number;
      /** Additive increase, as a share of the current rate per second of saturated demand. */
      increase: number;
      /** Multiplicative decrease on a congestion signal. */
      decrease: number;
      /** A second decrease needs this long since the last: the 429s of requests already sent count once. */
      cooldownMs: number;
      /** Latency above `latencyFactor` × the lowest seen is a congestion signal. 0 disables it. */
      latencyFactor: number;
    };

export const DEFAULT_ADAPTIVE: Extract<RateLimitOptions, { mode: "adaptive" }> = {
  mode: "adaptive",
  initial: 20,
  min: 1,
  max: 5_000,
  increase: 0.05,
  decrease: 0.85,
  cooldownMs: 500,
  latencyFactor: 4,
};
