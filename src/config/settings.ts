import { join, resolve } from "node:path";
import type { BucketSettings } from "../inbox/bucket/bucket-client.ts";
import { formatAddress, type ListenAddress, parseListenAddress } from "../lib/listen-address.ts";
import { clusterTarget, describeTarget, type RedisTarget, redactUrl } from "../lib/redis.ts";
import { DEFAULT_ADAPTIVE, type RateLimitOptions } from "../limiter/rate-limit-options.ts";
import { jobsDirSetting, resourcesDirSetting } from "./folders.ts";
import { type LogLevel, logLevelSetting } from "./log-level.ts";

/** A value and where it came from, printed at start so nothing is a surprise. */
export interface Setting<T> {
  value: T;
  source: string;
}

export interface Settings {
  /** undefined: the default URL if it answers, else a private redis-server. */
  redisUrl: Setting<string | undefined>;
  /** A Redis Cluster's seed nodes (REDIS_CLUSTER_NODES); wins over REDIS_URL. */
  redisCluster: Setting<RedisTarget | undefined>;
  /** undefined: the embedded simulator. */
  baseUrl: Setting<string | undefined>;
  /** undefined: the embedded simulator's key is the home's own (daemon/embedded-key.ts). */
  apiKey: Setting<string | undefined>;
  jobsDir: Setting<string>;
  /** resources/: the dialer pools jobs name are read from there (`campaign.dialers: { resource }`). */
  resourcesDir: Setting<string>;
  /** Working folder of the embedded defaults (private Redis data, simulator state). */
  home: Setting<string>;
  prefix: Setting<string>;
  rateLimit: Setting<RateLimitOptions>;
  /** Files imported at once per worker process. */
  fileConcurrency: Setting<number>;
  requestTimeoutMs: Setting<number>;
  maxRetries: Setting<number>;
  /** Attempts per file before it is rejected, and the first retry delay (doubling). */
  importAttempts: Setting<number>;
  importBackoffMs: Setting<number>;
  /** A dropped file counts as written once its size is stable this long. */
  stableMs: Setting<number>;
  /** How often processing/ is looked at again for files whose job was lost or not settled. */
  rescanMs: Setting<number>;
  /**
   * Bucket inboxes (`inbox: s3://...`): endpoint and region from AWS's variables, path-style and the
   * listing interval from vcw's. Credentials are never settings: the SDK's standard chain finds them.
   */
  bucket: Setting<BucketSettings>;
  /** Ledger lease = request timeout × attempts + this margin. */
  leaseMarginMs: Setting<number>;
  /**
   * How long after it was sent a create whose answer was lost can still be applied by the service: a re-send,
   * and a campaign's start, wait this long after the create (issue 28; reasoning in docs/operations.md).
   */
  settleMs: Setting<number>;
  /**
   * The least time from a campaign's create to its start, settle time or none (idempotency keys):
   * room for the check before its start (duplicates, opt-outs, do-not-call numbers) to run first.
   */
  startLeadMs: Setting<number>;
  /**
   * Creates carry an `Idempotency-Key` (a service that honours it): a re-send needs no settle wait.
   * Unset: decided by the calling service (daemon/calling-service.ts), on for vcw's own simulator.
   */
  idempotencyKeys: Setting<boolean | undefined>;
  /**
   * A worker silent this long is presumed dead and its files are taken over. With the two below, a knob
   * for tests and benchmarks (TUNING_SETTINGS): not in the user's table, logged at start only when set.
   */
  lockMs: Setting<number>;
  stalledIntervalMs: Setting<number>;
  /** Worker deaths one file may survive before it is failed. */
  maxStalledCount: Setting<number>;
  /** Attempts per sink delivery before the failed set, and the first retry delay (doubling). */
  deliveryAttempts: Setting<number>;
  deliveryBackoffMs: Setting<number>;
  /** The longest wait between two delivery attempts: the doubling stops there, so retries can span hours. */
  deliveryBackoffMaxMs: Setting<number>;
  /** How long what vcw keeps in Redis lives after its use: ended campaigns, ledgers, file records, jobs. */
  retentionDays: Setting<number>;
  /** How long a stop waits for running jobs before it goes anyway. */
  shutdownGraceMs: Setting<number>;
  /** Deliveries to one sink at once in one process; the delivery worker has this many per sink. */
  sinkConcurrency: Setting<number>;
  /** Simulated seconds per real second of the embedded simulator. */
  simTimeScale: Setting<number>;
  /** The operator's HTTP surface (health, metrics, dashboard) of a daemon; undefined: off. */
  httpAddr: Setting<ListenAddress | undefined>;
  /** Needed for everything but /livez and /readyz when set; required off the loopback interface. */
  httpToken: Setting<string | undefined>;
  /** How long a dashboard sign-in lasts. */
  httpSessionHours: Setting<number>;
  /** Live dashboards (server-sent-event streams) served at once; more are refused until one closes. */
  httpMaxStreams: Setting<number>;
  /** Host names (or host:port) the surface answers besides its own address and VCW_PUBLIC_URL's. */
  httpAllowedHosts: Setting<string[]>;
  /** Proxies whose X-Forwarded-* headers are believed (fastify's trustProxy: addresses, CIDRs). */
  httpTrustProxy: Setting<string | undefined>;
  /** Where operators reach the surface, e.g. https://vcw.example.com (its host is allowed; https makes cookies Secure). */
  publicUrl: Setting<string | undefined>;
  /** The daemon's log level (LOG_LEVEL, config/log-level.ts: the commands read it there too, default warn). */
  logLevel: Setting<LogLevel>;
}

/** Knobs for tests and benchmarks: read as any setting, logged at start only when set (docs/configuration.md). */
export const TUNING_SETTINGS: ReadonlySet<keyof Settings> = new Set<keyof Settings>([
  "lockMs",
  "stalledIntervalMs",
  "maxStalledCount",
]);

export const DEFAULT_HTTP_ADDR: ListenAddress = { host: "127.0.0.1", port: 9400 };

export const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";

/** Settings from the environment, with a source for each. Never prints or returns the key elsewhere. */
export function resolveSettings(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Settings {
  const from = <T>(name: string, parse: (v: string) => T, fallback: T, why: string): Setting<T> => {
    const raw = env[name];
    if (raw === undefined || raw === "") return { value: fallback, source: why };
    return { value: parse(raw), source: `$${name}` };
  };
  const int = (name: string, fallback: number, min = 1) =>
    from(name, (v) => positiveInt(name, v, min), fallback, "default");
  const home = from("VCW_HOME", (v) => resolve(cwd, v), resolve(cwd, ".vcw"), "default ./.vcw");
  return {
    redisUrl: from(
      "REDIS_URL",
      String,
      undefined,
      `default ${DEFAULT_REDIS_URL}, else a private redis-server`,
    ),
    redisCluster: from("REDIS_CLUSTER_NODES", clusterTarget, undefined, "not set: a single Redis"),
    baseUrl: from("VCS_BASE_URL", String, undefined, "embedded simulator (VCS_BASE_URL not set)"),
    apiKey: from(
      "VCS_API_KEY",
      String,
      undefined,
      "not set: the embedded simulator's key is the home's (simulator.key)",
    ),
    jobsDir: jobsDirSetting(env, cwd),
    resourcesDir: resourcesDirSetting(env, cwd),
    home,
    prefix: from("VCW_PREFIX", String, "vcw", "default"),
    rateLimit: from(
      "VCW_RATE_LIMIT",
      parseRate,
      DEFAULT_ADAPTIVE,
      "default: adaptive (finds the service's limit)",
    ),
    fileConcurrency: from(
      "VCW_FILE_CONCURRENCY",
      (v) => positiveInt("VCW_FILE_CONCURRENCY", v),
      2,
      "default",
    ),
    requestTimeoutMs: from(
      "VCW_REQUEST_TIMEOUT_MS",
      (v) => positiveInt("VCW_REQUEST_TIMEOUT_MS", v),
      10_000,
      "default",
    ),
    maxRetries: from("VCW_MAX_RETRIES", (v) => positiveInt("VCW_MAX_RETRIES", v, 0), 2, "default"),
    importAttempts: int("VCW_IMPORT_ATTEMPTS", 5),
    importBackoffMs: int("VCW_IMPORT_BACKOFF_MS", 5_000),
    stableMs: int("VCW_STABLE_MS", 1_000),
    rescanMs: int("VCW_RESCAN_MS", 60_000),
    bucket: bucketSettings(env),
    leaseMarginMs: int("VCW_LEASE_MARGIN_MS", 15_000, 0),
    settleMs: int("VCW_SETTLE_MS", 60_000, 0),
    startLeadMs: int("VCW_START_LEAD_MS", 4_000, 0),
    idempotencyKeys: from(
      "VCW_IDEMPOTENCY_KEYS",
      (v) => parseOnOff("VCW_IDEMPOTENCY_KEYS", v),
      undefined,
      "default: on with the embedded simulator (it honours them), off with VCS_BASE_URL (the spec has none)",
    ),
    lockMs: int("VCW_LOCK_MS", 30_000),
    stalledIntervalMs: int("VCW_STALLED_INTERVAL_MS", 30_000),
    maxStalledCount: int("VCW_MAX_STALLED", 10, 0),
    deliveryAttempts: int("VCW_DELIVERY_ATTEMPTS", 20),
    sinkConcurrency: int("VCW_SINK_CONCURRENCY", 4),
    deliveryBackoffMs: int("VCW_DELIVERY_BACKOFF_MS", 2_000),
    deliveryBackoffMaxMs: int("VCW_DELIVERY_BACKOFF_MAX_MS", 3_600_000),
    shutdownGraceMs: int("VCW_SHUTDOWN_GRACE_MS", 20_000),
    retentionDays: int("VCW_RETENTION_DAYS", 30),
    simTimeScale: int("VCW_SIM_TIME_SCALE", 60),
    httpAddr: from("VCW_HTTP_ADDR", (v) => parseListenAddress(v), DEFAULT_HTTP_ADDR, "default"),
    httpToken: from("VCW_HTTP_TOKEN", parseToken, undefined, "not set: loopback only, no token asked"),
    httpSessionHours: int("VCW_HTTP_SESSION_HOURS", 12),
    httpMaxStreams: int("VCW_HTTP_MAX_STREAMS", 50),
    httpAllowedHosts: from("VCW_HTTP_ALLOWED_HOSTS", parseHostList, [], "none: its own address only"),
    httpTrustProxy: from("VCW_HTTP_TRUST_PROXY", String, undefined, "not set: no proxy is believed"),
    publicUrl: from("VCW_PUBLIC_URL", parsePublicUrl, undefined, "not set"),
    logLevel: logLevelSetting(env, "info"),
  };
}

/**
 * Where bucket inboxes are: `AWS_ENDPOINT_URL_S3` (else `AWS_ENDPOINT_URL`) for an S3-compatible
 * store, `AWS_REGION` (else `AWS_DEFAULT_REGION`); path-style addressing (`VCW_S3_PATH_STYLE`, on by
 * default with an endpoint of one's own: local stores rarely have a name per bucket); and how often
 * an inbox is listed (`VCW_BUCKET_SCAN_MS`, 10 s).
 */
function bucketSettings(env: NodeJS.ProcessEnv): Setting<BucketSettings> {
  const pick = (...names: string[]) => names.find((n) => env[n]);
  const endpointVar = pick("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL");
  const regionVar = pick("AWS_REGION", "AWS_DEFAULT_REGION");
  const endpoint = endpointVar ? parseEndpoint(endpointVar, env[endpointVar]!) : undefined;
  const pathStyle = env.VCW_S3_PATH_STYLE
    ? parseOnOff("VCW_S3_PATH_STYLE", env.VCW_S3_PATH_STYLE)
    : endpoint !== undefined;
  const scanMs = env.VCW_BUCKET_SCAN_MS ? positiveInt("VCW_BUCKET_SCAN_MS", env.VCW_BUCKET_SCAN_MS) : 10_000;
  const from = [endpointVar, regionVar, "VCW_S3_PATH_STYLE", "VCW_BUCKET_SCAN_MS"].filter((n) => n && env[n]);
  return {
    value: { endpoint, region: regionVar ? env[regionVar] : undefined, pathStyle, scanMs },
    source: from.length > 0 ? from.map((n) => `$${n}`).join(", ") : "default: AWS S3",
  };
}

/** An http(s) URL without credentials (an access key belongs in the credential chain). */
function parseEndpoint(name: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${name} must be a URL such as http://127.0.0.1:9000, not "${text}"`);
  }
  if (!["http:", "https:"].includes(url.protocol) || url.username || url.password)
    throw new Error(`${name} must be an http(s) URL without credentials in it`);
  return url.href.replace(/\/$/, "");
}

/** `adaptive`, or a number: that many requests per second, fixed. */
export function parseRate(text: string): RateLimitOptions {
  if (text === "adaptive") return DEFAULT_ADAPTIVE;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) {
    throw new Error(`VCW_RATE_LIMIT must be "adaptive" or a number of requests per second, not "${text}"`);
  }
  return { mode: "fixed", perSecond: n };
}

function parseOnOff(name: string, text: string): boolean {
  if (text === "on") return true;
  if (text === "off") return false;
  throw new Error(`${name} must be "on" or "off", not "${text}"`);
}

/** `a.example.com, b.example.com:9400`: host names, lowercased, each with or without a port. */
function parseHostList(text: string): string[] {
  const hosts = text
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  for (const h of hosts)
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/.test(h))
      throw new Error(`VCW_HTTP_ALLOWED_HOSTS: "${h}" is not a host name or host:port`);
  return hosts;
}

/** An http(s) URL with no credentials in it. */
function parsePublicUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`VCW_PUBLIC_URL must be a URL such as https://vcw.example.com, not "${text}"`);
  }
  if (!["http:", "https:"].includes(url.protocol) || url.username || url.password)
    throw new Error("VCW_PUBLIC_URL must be an http(s) URL without credentials");
  return url.href.replace(/\/$/, "");
}

/** A token short enough to guess protects nothing. */
function parseToken(text: string): string {
  if (text.length < 16)
    throw new Error("VCW_HTTP_TOKEN must be at least 16 characters (a long random string)");
  return text;
}

function positiveInt(name: string, text: string, min = 1): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`${name} must be a whole number of at least ${min}, not "${text}"`);
  return n;
}

export const simulatorStateFile = (s: Pick<Settings, "home">) => join(s.home.value, "simulator.json");

export const retentionMsOf = (s: Settings) => s.retentionDays.value * 86_400_000;

/** Where a bucket inbox's objects are downloaded to be read. */
export const downloadsDir = (s: Settings) => join(s.home.value, "downloads");

/**
 * The lines printed at start: every setting and its source (the test and benchmark knobs only when set).
 * Secrets show only their source.
 */
export function describeSettings(s: Settings): string[] {
  const show = (v: unknown) => (typeof v === "object" ? JSON.stringify(v) : String(v ?? "auto"));
  const shown = Object.entries(s).filter(
    ([name, setting]: [string, Setting<unknown>]) =>
      !TUNING_SETTINGS.has(name as keyof Settings) || setting.source !== "default",
  );
  return shown.map(([name, setting]: [string, Setting<unknown>]) => {
    if (TUNING_SETTINGS.has(name as keyof Settings))
      return `${name}: ${show(setting.value)} (${setting.source}, a knob for tests and benchmarks)`;
    if (name === "apiKey") return `apiKey: ${setting.value ? "(hidden) from " : ""}${setting.source}`;
    if (name === "httpToken") return `httpToken: ${setting.value ? "(hidden) from " : ""}${setting.source}`;
    if (name === "httpAddr")
      return `${name}: ${setting.value ? formatAddress(setting.value as ListenAddress) : "off"} (${setting.source})`;
    if (name === "redisUrl" && typeof setting.value === "string")
      return `${name}: ${redactUrl(setting.value)} (${setting.source})`;
    if (name === "redisCluster" && setting.value)
      return `${name}: ${describeTarget(setting.value as RedisTarget)} (${setting.source})`;
    return `${name}: ${show(setting.value)} (${setting.source})`;
  });
}
