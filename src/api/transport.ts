import ky, { HTTPError, type RetryOptions as KyRetryOptions, NetworkError, TimeoutError } from "ky";
import type { z } from "zod";
import { AudienceEntryList } from "./audience-entries.ts";
import {
  AmbiguousWriteError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  errorForStatus,
  OwnershipLostError,
  RequestValidationError,
  ResponseTooLargeError,
  UnexpectedResponseError,
} from "./errors/index.ts";
import type { RequestGate } from "./gate.ts";
import { ItemCallbackError } from "./json-array-stream.ts";
import type { ClientLogger } from "./logger.ts";
import { networkErrorCode } from "./network-error.ts";
import { observedFetch, type RequestObserver } from "./observer.ts";
import { isIdempotent, type OperationName, operations, type ResponseOf } from "./operations.ts";
import { readErrorBody } from "./read-error-body.ts";
import { attemptTimedFetch, readTimeouts } from "./read-patience.ts";
import { readResponse, requestIdOf } from "./read-response.ts";
import {
  backoffDelay,
  type Failure,
  isAmbiguous,
  isRetryableStatus,
  mayRetry,
  parseRetryAfter,
  type RetryOptions,
} from "./retry-policy.ts";
import { scrubSecrets, secretValuesOf } from "./secrets.ts";
import { fencedFetch, keptAlive, type SendFence } from "./send-fence.ts";
import { type JsonArrayReader, streamingFetch } from "./streaming-fetch.ts";
import type { Fetch, Signal } from "./web-types.ts";
import { wholeBodyFetch } from "./whole-body-fetch.ts";
import { toFieldIssues } from "./zod-issues.ts";

export interface TransportOptions {
  /** Base URL ending in `/api/v1`. */
  baseUrl: string;
  apiKey: string;
  /**
   * Per attempt, from sending to the last byte of the body. A read's retry after a timeout waits
   * twice as long as the attempt before, up to 4 times this (read-patience.ts); a write's never.
   */
  timeoutMs: number;
  /** Cap of a response body, counted as it streams. */
  maxResponseBytes: number;
  retry: RetryOptions;
  logger: ClientLogger;
  fetch?: Fetch | undefined;
  gate?: RequestGate | undefined;
  /** Hears every attempt (operation, status, duration): request metrics. */
  observer?: RequestObserver | undefined;
  /** Send a request's `idempotencyKey` as the `Idempotency-Key` header (a service that honours it). */
  idempotencyKeys?: boolean | undefined;
}

/** Options of one request; they override the client's. */
export interface RequestOptions {
  /** Per attempt, from sending to the last byte of the body. */
  timeoutMs?: number;
  maxResponseBytes?: number;
  maxRetries?: number;
  retry?: Partial<RetryOptions>;
  signal?: Signal;
  /** Checked at the moment each attempt leaves (see SendFence): a create whose owner may have changed. */
  fence?: SendFence;
  /** A stable key of this create, sent when the client is configured for idempotency keys. */
  idempotencyKey?: string;
}

export interface RequestInput {
  id?: string | undefined;
  body?: unknown;
}

const RETRY_AFTER_STATUSES = [429, 503];
const ALL_STATUSES = Array.from({ length: 200 }, (_, i) => 400 + i);

/** Operations whose success body is read more tolerantly than their documented response schema. */
const READERS: { [N in OperationName]?: z.ZodType<ResponseOf<N>> } = {
  "campaigns.audiences": AudienceEntryList,
};

/** Sends one operation; `read` replaces the schema its success body is read with. */
export type Send = <N extends OperationName, T = ResponseOf<N>>(
  name: N,
  input: RequestInput,
  options?: RequestOptions,
  read?: z.ZodType<T>,
) => Promise<T>;

/**
 * Sends one operation whose success body is a JSON array, read as a stream by `reader`: neither
 * the body nor the array is held. `maxResponseBytes` caps one element instead of the body.
 */
export type SendStreamed = <T>(
  name: OperationName,
  input: RequestInput,
  options: RequestOptions | undefined,
  reader: JsonArrayReader<T>,
) => Promise<T>;

export type Transport = Send & { streamed: SendStreamed };

/** How an attempt's body is read: ky's fetch for it, then the result once ky has the response. */
interface BodyReading<T> {
  fetch(o: { operation: string; maxResponseBytes: number; onHeaders: (r: Response) => void }): typeof fetch;
  result(response: Response): Promise<T>;
}

export function createTransport(config: TransportOptions): Transport {
  const base = config.baseUrl.replace(/\/+$/, "");
  const { logger } = config;
  const fetchImpl = config.fetch ?? globalThis.fetch;

  const send: Send = (name, input, options = {}, read) =>
    run(name, input, options, (secrets) => ({
      fetch: (o) => wholeBodyFetch({ fetch: fetchImpl, ...o }),
      result: async (response) =>
        (await readResponse(
          name,
          response,
          read ?? READERS[name] ?? operations[name].response,
          secrets,
        )) as never,
    }));

  const streamed: SendStreamed = (name, input, options = {}, reader) =>
    run(name, input, options, (secrets) => ({
      fetch: (o) =>
        streamingFetch({
          fetch: fetchImpl,
          ...o,
          reader,
          scrub: (message) => scrubSecrets(message, secrets),
        }),
      result: async () => reader.finish(),
    }));

  return Object.assign(send, { streamed });

  async function run<T>(
    name: OperationName,
    input: RequestInput,
    options: RequestOptions,
    reading: (secrets: string[]) => BodyReading<T>,
  ): Promise<T> {
    const op = operations[name];
    const body = validateRequest(name, input);
    const retry: RetryOptions = {
      ...config.retry,
      ...options.retry,
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    };
    const timeoutMs = options.timeoutMs ?? config.timeoutMs;
    // A read grows its timeout after each timeout; a write (a fenced create above all) keeps one.
    const patience = op.effect === "read" && !options.fence ? readTimeouts(timeoutMs) : undefined;
    const attemptTimeoutMs = () => patience?.current() ?? timeoutMs;
    const secrets = [config.apiKey, ...secretValuesOf(input.body)];
    const url = new URL(base + op.path);
    if (op.id) url.searchParams.set("id", input.id as string);
    const where = { operation: name, method: op.method, path: url.pathname + url.search };
    const observing = (f: typeof globalThis.fetch) =>
      config.observer ? observedFetch(f, name, config.observer, options.signal) : f;
    const started = performance.now();
    let attempts = 1;
    const { gate } = config;
    let attemptStarted = started;
    let observed = false;
    // Once per attempt: at its headers (the latency the gate watches), else when it fails.
    const observe = (status: number | undefined, error?: unknown) => {
      if (observed) return;
      observed = true;
      gate?.observe({
        status,
        timedOut: error instanceof TimeoutError,
        latencyMs: performance.now() - attemptStarted,
      });
    };

    // Each attempt waits for the gate (the rate limit) before it is timed.
    const startAttempt = async () => {
      await keptAlive(options.fence, async () => gate?.acquire(options.signal));
      attemptStarted = performance.now();
      observed = false;
    };

    const bodyReading = reading(secrets);
    // The fence runs after the gate and after ky's retry sleep, the last step before fetch.
    const attemptFetch = fencedFetch(
      observing(
        bodyReading.fetch({
          operation: name,
          maxResponseBytes: options.maxResponseBytes ?? config.maxResponseBytes,
          onHeaders: (response) => observe(response.status),
        }),
      ),
      options.fence,
    );
    try {
      const response = await ky(url, {
        method: op.method,
        headers: {
          "x-api-key": config.apiKey,
          accept: "application/json",
          ...(config.idempotencyKeys && options.idempotencyKey
            ? { "idempotency-key": options.idempotencyKey }
            : {}),
        },
        ...(body === undefined ? {} : { json: body }),
        // ky's timeout and signal cover its fetch; this one returns only once the body is in. A
        // read's attempts time themselves, each as long as `patience` says; ky's is their cap.
        timeout: patience?.maxMs ?? timeoutMs,
        signal: options.signal,
        // ky 2 reads a failure's body into HTTPError.data: keep it as text, read tolerantly below.
        parseJson: (text) => text,
        fetch: patience ? attemptTimedFetch(attemptFetch, attemptTimeoutMs) : attemptFetch,
        retry: kyRetry(op, retry),
        // ky 2 runs beforeRequest once, before the first attempt; beforeRetry before each other one.
        hooks: {
          beforeRequest: [() => startAttempt()],
          beforeRetry: [
            async ({ error, retryCount }) => {
              attempts = retryCount + 1;
              observe(undefined, error);
              if (error instanceof TimeoutError) patience?.timedOut();
              logger.debug(
                { ...where, retry: retryCount, reason: describeFailure(classify(error)) },
                "api retry",
              );
              await startAttempt();
            },
          ],
        },
      });
      const result = await bodyReading.result(response);
      logger.debug(
        { ...where, status: response.status, attempts, ms: Math.round(performance.now() - started) },
        "api request",
      );
      return result;
    } catch (error) {
      if (isUserAbort(error, options.signal) || error instanceof OwnershipLostError) throw error;
      // The reader's own failure (its storage, say) is neither the service's fault nor retried.
      if (error instanceof ItemCallbackError) throw error.cause;
      observe(undefined, error);
      const apiError =
        error instanceof APIError ? error : await toApiError(name, error, attemptTimeoutMs(), secrets);
      const failure = classify(error);
      const final =
        !isIdempotent(op) && failure && isAmbiguous(failure) ? new AmbiguousWriteError(apiError) : apiError;
      logger.debug(
        {
          ...where,
          status: apiError.status,
          attempts,
          ms: Math.round(performance.now() - started),
          error: final.name,
        },
        "api request failed",
      );
      throw final;
    }
  }
}

function validateRequest(name: OperationName, input: RequestInput): unknown {
  const op = operations[name];
  if (op.id && (typeof input.id !== "string" || input.id.trim() === "")) {
    throw new RequestValidationError(name, [{ path: "id", message: `is required: the ${op.id} identifier` }]);
  }
  if (!op.request) {
    if (input.body !== undefined) {
      throw new RequestValidationError(name, [{ path: "", message: "this operation takes no request body" }]);
    }
    return undefined;
  }
  const parsed = (op.request as z.ZodType).safeParse(input.body);
  if (!parsed.success) throw new RequestValidationError(name, toFieldIssues(parsed.error));
  return parsed.data;
}

async function toApiError(
  name: OperationName,
  error: unknown,
  timeoutMs: number,
  secrets: string[],
): Promise<APIError> {
  if (error instanceof HTTPError) {
    // ky 2 has read the body already: `data` is its text (see parseJson).
    const { response, data } = error;
    const body = readErrorBody(typeof data === "string" ? data : "");
    return errorForStatus(response.status, {
      operation: name,
      status: response.status,
      code: body.code,
      apiMessage: scrubSecrets(body.message ?? response.statusText, secrets),
      requestId: requestIdOf(response),
      retryAfterMs: parseRetryAfter(response.headers.get("retry-after"), Date.now()),
    });
  }
  if (error instanceof TimeoutError) return new APIConnectionTimeoutError({ operation: name, timeoutMs });
  // Only the code and the system message travel on: ky's own errors hold the request and its headers.
  const raw = error instanceof NetworkError ? error.cause : error;
  const networkCode = networkErrorCode(raw);
  return new APIConnectionError(
    { operation: name, networkCode },
    scrubSecrets(`connection error: ${causeMessage(raw) ?? networkCode ?? "unknown"}`, secrets),
  );
}

function classify(error: unknown): Failure | undefined {
  if (error instanceof UnexpectedResponseError || error instanceof ResponseTooLargeError) {
    return { kind: "unreadable" };
  }
  if (error instanceof HTTPError) return { kind: "status", status: error.response.status };
  if (error instanceof TimeoutError) return { kind: "timeout" };
  if (error instanceof Error && error.name === "AbortError") return undefined;
  return { kind: "network", code: networkErrorCode(error) };
}

function describeFailure(failure: Failure | undefined): string {
  if (!failure) return "unknown";
  if (failure.kind === "status") return `HTTP ${failure.status}`;
  if (failure.kind === "network") return `network ${failure.code ?? "error"}`;
  return failure.kind;
}

function hasRetryAfter(error: HTTPError): boolean {
  return RETRY_AFTER_STATUSES.includes(error.response.status) && error.response.headers.has("retry-after");
}

function causeMessage(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown })?.cause;
  if (cause instanceof Error && cause.message) return cause.message;
  return error instanceof Error ? error.message : undefined;
}

function isUserAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return (
    signal?.aborted === true &&
    !(error instanceof HTTPError) &&
    !(error instanceof TimeoutError) &&
    !(error instanceof APIError)
  );
}

/** ky's retry options from ours: which failures are retried (`mayRetry`), with which backoff. */
function kyRetry(op: (typeof operations)[OperationName], retry: RetryOptions): KyRetryOptions {
  return {
    limit: retry.maxRetries,
    methods: ["get", "post", "put", "delete"],
    statusCodes: ALL_STATUSES.filter(isRetryableStatus),
    afterStatusCodes: RETRY_AFTER_STATUSES,
    maxRetryAfter: retry.retryAfterCapMs,
    retryOnTimeout: true,
    delay: (n) => backoffDelay(n, retry),
    shouldRetry: ({ error }) => {
      if (error instanceof ItemCallbackError || error instanceof OwnershipLostError) return false;
      const failure = classify(error);
      if (!failure || !mayRetry(failure, isIdempotent(op))) return false;
      // Leave a Retry-After to ky, which honours it up to maxRetryAfter.
      if (error instanceof HTTPError && hasRetryAfter(error)) return undefined;
      return true;
    },
  };
}
