import { setTimeout as sleep } from "node:timers/promises";
import type { z } from "zod";
import { AttemptTimeout, StatusFailure } from "./attempt-failures.ts";
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
import { ItemCallbackError } from "./json-array-errors.ts";
import type { ClientLogger } from "./logger.ts";
import { networkErrorCode } from "./network-error.ts";
import { attemptObserver, type RequestObserver } from "./observer.ts";
import { isIdempotent, type OperationName, operations, type ResponseOf } from "./operations.ts";
import { readErrorBody } from "./read-error-body.ts";
import { MAX_TIMER_MS, readTimeouts } from "./read-patience.ts";
import { readResponse, requestIdOf } from "./read-response.ts";
import {
  backoffDelay,
  type Failure,
  isAmbiguous,
  mayRetry,
  parseRetryAfter,
  type RetryOptions,
} from "./retry-policy.ts";
import { scrubSecrets, secretValuesOf } from "./secrets.ts";
import { fencedSend, keptAlive, type SendFence } from "./send-fence.ts";
import { type JsonArrayReader, streamedBody } from "./streamed-body.ts";
import type { Fetch, FetchResponse, Signal } from "./web-types.ts";
import { FAILURE_BODY_BYTES, readWholeText } from "./whole-body.ts";
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

/** How an attempt's success body is read (inside the attempt), then what the request returns. */
interface BodyReading<B, T> {
  body(response: FetchResponse, signal: Signal): Promise<B>;
  result(response: FetchResponse, body: B): T | Promise<T>;
}

export function createTransport(config: TransportOptions): Transport {
  const base = config.baseUrl.replace(/\/+$/, "");
  const basePath = new URL(base).pathname;
  const { logger } = config;
  const fetchImpl = config.fetch ?? globalThis.fetch;

  const send: Send = (name, input, options = {}, read) => {
    const secrets = secretsOf(input);
    const maxResponseBytes = options.maxResponseBytes ?? config.maxResponseBytes;
    return run(name, input, options, secrets, {
      body: (response, signal) => readWholeText(response, { operation: name, maxResponseBytes }, signal),
      result: (response, text) =>
        readResponse(
          name,
          response,
          text,
          read ?? READERS[name] ?? operations[name].response,
          secrets,
        ) as never,
    });
  };

  const streamed: SendStreamed = (name, input, options = {}, reader) => {
    const secrets = secretsOf(input);
    return run(name, input, options, secrets, {
      body: streamedBody({
        operation: name,
        maxResponseBytes: options.maxResponseBytes ?? config.maxResponseBytes,
        reader,
        scrub: (message) => scrubSecrets(message, secrets),
      }),
      result: () => reader.finish(),
    });
  };

  return Object.assign(send, { streamed });

  function secretsOf(input: RequestInput): string[] {
    return [config.apiKey, ...secretValuesOf(input.body)];
  }

  /**
   * One request: its attempts, each after the gate, fenced, timed from sending to its last byte
   * with one abort signal of its own; retried as retry-policy.ts says.
   */
  async function run<B, T>(
    name: OperationName,
    input: RequestInput,
    options: RequestOptions,
    secrets: string[],
    reading: BodyReading<B, T>,
  ): Promise<T> {
    const op = operations[name];
    const payload = bodyText(validateRequest(name, input));
    const retry: RetryOptions = {
      ...config.retry,
      ...options.retry,
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    };
    const timeoutMs = Math.min(MAX_TIMER_MS, options.timeoutMs ?? config.timeoutMs);
    // A read grows its timeout after each timeout; a write (a fenced create above all) keeps one.
    const patience = op.effect === "read" && !options.fence ? readTimeouts(timeoutMs) : undefined;
    const attemptTimeoutMs = () => patience?.current() ?? timeoutMs;
    const query = op.id ? `?${new URLSearchParams({ id: input.id as string })}` : "";
    const url = base + op.path + query;
    const where = { operation: name, method: op.method, path: basePath + op.path + query };
    const headers: Record<string, string> = {
      "x-api-key": config.apiKey,
      accept: "application/json",
      ...(payload === undefined ? {} : { "content-type": "application/json" }),
      ...(config.idempotencyKeys && options.idempotencyKey
        ? { "idempotency-key": options.idempotencyKey }
        : {}),
    };
    const observed = config.observer ? attemptObserver(name, config.observer, options.signal) : undefined;
    const { gate, fence } = { gate: config.gate, fence: options.fence };
    const started = performance.now();

    const attempt = (signal: Signal) =>
      fencedSend(fence, headers, signal, async (sent) => {
        const attemptStarted = performance.now();
        let response: FetchResponse;
        try {
          response = await fetchImpl(url, { method: op.method, headers: sent, body: payload, signal });
        } catch (error) {
          gate?.observe({
            status: undefined,
            timedOut: error instanceof AttemptTimeout,
            latencyMs: performance.now() - attemptStarted,
          });
          throw error;
        }
        // At the headers: the latency the gate watches.
        gate?.observe({
          status: response.status,
          timedOut: false,
          latencyMs: performance.now() - attemptStarted,
        });
        if (!response.ok) throw new StatusFailure(response, await readFailureText(response, signal));
        return { response, body: await reading.body(response, signal) };
      });

    for (let attempts = 1; ; attempts++) {
      await keptAlive(fence, async () => gate?.acquire(options.signal));
      try {
        const timed = () => timedAttempt(attemptTimeoutMs(), options.signal, attempt);
        const { response, body } = await (observed ? observed(timed) : timed());
        const result = await reading.result(response, body);
        logger.debug(
          { ...where, status: response.status, attempts, ms: Math.round(performance.now() - started) },
          "api request",
        );
        return result;
      } catch (error) {
        if (isUserAbort(error, options.signal) || error instanceof OwnershipLostError) throw error;
        // The reader's own failure (its storage, say) is neither the service's fault nor retried.
        if (error instanceof ItemCallbackError) throw error.cause;
        const wait = attempts <= retry.maxRetries ? retryWait(op, retry, error, attempts) : undefined;
        if (wait === undefined) throw failed(error, attempts);
        if (error instanceof AttemptTimeout) patience?.timedOut();
        logger.debug({ ...where, retry: attempts, reason: describeFailure(classify(error)) }, "api retry");
        // The caller's abort during the wait ends the request with the caller's reason, as a send's does.
        await sleep(wait, undefined, options.signal ? { signal: options.signal } : undefined).catch(() => {
          throw options.signal?.reason;
        });
      }
    }

    /** The error a request ends with: an APIError, ambiguous when a create may have been applied. */
    function failed(error: unknown, attempts: number): Error {
      const apiError =
        error instanceof APIError ? error : toApiError(name, error, attemptTimeoutMs(), secrets);
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
      return final;
    }
  }
}

/** A failure's body, cut at its limit: only its message is read. */
function readFailureText(response: FetchResponse, signal: Signal): Promise<string> {
  return readWholeText(response, { operation: "", maxResponseBytes: FAILURE_BODY_BYTES }, signal);
}

/** The request body as sent: JSON, written once for every attempt. */
const bodyText = (body: unknown): string | undefined =>
  body === undefined ? undefined : JSON.stringify(body);

/**
 * Runs one attempt with an abort signal of its own, aborted at `timeoutMs` (an AttemptTimeout) or
 * with the caller's signal; the attempt is rejected then even if its fetch ignores the signal.
 */
function timedAttempt<T>(
  timeoutMs: number,
  caller: Signal | undefined,
  work: (signal: Signal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const stop = (reason: unknown) => {
      controller.abort(reason);
      reject(reason);
    };
    if (caller?.aborted) return stop(caller.reason);
    const onAbort = () => stop(caller?.reason);
    caller?.addEventListener("abort", onAbort, { once: true });
    const timer = setTimeout(() => stop(new AttemptTimeout(timeoutMs)), timeoutMs);
    work(controller.signal)
      .then(resolve, reject)
      .finally(() => {
        clearTimeout(timer);
        caller?.removeEventListener("abort", onAbort);
      });
  });
}

/**
 * How long to wait before sending again, or undefined when the failure is not retried: a failure
 * `mayRetry` allows, after a Retry-After (429, 503) up to its cap, else the backoff.
 */
function retryWait(
  op: (typeof operations)[OperationName],
  retry: RetryOptions,
  error: unknown,
  retryNumber: number,
): number | undefined {
  const failure = classify(error);
  if (!failure || !mayRetry(failure, isIdempotent(op))) return undefined;
  if (error instanceof StatusFailure && RETRY_AFTER_STATUSES.includes(error.response.status)) {
    const after = parseRetryAfter(error.response.headers.get("retry-after"), Date.now());
    if (after !== undefined) return Math.min(retry.retryAfterCapMs, after);
  }
  return backoffDelay(retryNumber, retry);
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

function toApiError(name: OperationName, error: unknown, timeoutMs: number, secrets: string[]): APIError {
  if (error instanceof StatusFailure) {
    // The attempt read the body (cut at its limit): its message is read tolerantly.
    const { response, text } = error;
    const body = readErrorBody(text);
    return errorForStatus(response.status, {
      operation: name,
      status: response.status,
      code: body.code,
      apiMessage: scrubSecrets(body.message ?? response.statusText, secrets),
      requestId: requestIdOf(response),
      retryAfterMs: parseRetryAfter(response.headers.get("retry-after"), Date.now()),
    });
  }
  if (error instanceof AttemptTimeout) return new APIConnectionTimeoutError({ operation: name, timeoutMs });
  // Only the code and the system message travel on.
  const networkCode = networkErrorCode(error);
  return new APIConnectionError(
    { operation: name, networkCode },
    scrubSecrets(`connection error: ${causeMessage(error) ?? networkCode ?? "unknown"}`, secrets),
  );
}

function classify(error: unknown): Failure | undefined {
  if (error instanceof UnexpectedResponseError || error instanceof ResponseTooLargeError) {
    return { kind: "unreadable" };
  }
  if (error instanceof StatusFailure) return { kind: "status", status: error.response.status };
  if (error instanceof AttemptTimeout) return { kind: "timeout" };
  if (error instanceof Error && error.name === "AbortError") return undefined;
  return { kind: "network", code: networkErrorCode(error) };
}

function describeFailure(failure: Failure | undefined): string {
  if (!failure) return "unknown";
  if (failure.kind === "status") return `HTTP ${failure.status}`;
  if (failure.kind === "network") return `network ${failure.code ?? "error"}`;
  return failure.kind;
}

function causeMessage(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown })?.cause;
  if (cause instanceof Error && cause.message) return cause.message;
  return error instanceof Error ? error.message : undefined;
}

function isUserAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return (
    signal?.aborted === true &&
    !(error instanceof StatusFailure) &&
    !(error instanceof AttemptTimeout) &&
    !(error instanceof APIError)
  );
}
