import ky, { HTTPError, TimeoutError } from "ky";
import type { z } from "zod";
import {
  AmbiguousWriteError,
  APIConnectionError,
  APIConnectionTimeoutError,
  type APIError,
  errorForStatus,
  RequestValidationError,
  UnexpectedResponseError,
} from "./errors/index.ts";
import type { RequestGate } from "./gate.ts";
import type { ClientLogger } from "./logger.ts";
import { networkErrorCode } from "./network-error.ts";
import { isIdempotent, type OperationName, operations, type ResponseOf } from "./operations.ts";
import { readErrorBody } from "./read-error-body.ts";
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
import { toFieldIssues } from "./zod-issues.ts";

export interface TransportOptions {
  /** Base URL ending in `/api/v1`. */
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  retry: RetryOptions;
  logger: ClientLogger;
  fetch?: typeof globalThis.fetch | undefined;
  gate?: RequestGate | undefined;
}

/** Options of one request; they override the client's. */
export interface RequestOptions {
  timeoutMs?: number;
  maxRetries?: number;
  retry?: Partial<RetryOptions>;
  signal?: AbortSignal;
}

export interface RequestInput {
  id?: string | undefined;
  body?: unknown;
}

const REQUEST_ID_HEADERS = ["x-request-id", "request-id"];
const RETRY_AFTER_STATUSES = [429, 503];
const ALL_STATUSES = Array.from({ length: 200 }, (_, i) => 400 + i);

export type Transport = <N extends OperationName>(
  name: N,
  input: RequestInput,
  options?: RequestOptions,
) => Promise<ResponseOf<N>>;

export function createTransport(config: TransportOptions): Transport {
  const base = config.baseUrl.replace(/\/+$/, "");
  const { logger } = config;

  return async function send<N extends OperationName>(
    name: N,
    input: RequestInput,
    options: RequestOptions = {},
  ): Promise<ResponseOf<N>> {
    const op = operations[name];
    const body = validateRequest(name, input);
    const retry: RetryOptions = {
      ...config.retry,
      ...options.retry,
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    };
    const timeoutMs = options.timeoutMs ?? config.timeoutMs;
    const secrets = [config.apiKey, ...secretValuesOf(input.body)];
    const url = new URL(base + op.path);
    if (op.id) url.searchParams.set("id", input.id as string);
    const where = { operation: name, method: op.method, path: url.pathname + url.search };
    const started = performance.now();
    let attempts = 1;
    const { gate } = config;
    let attemptStarted = started;
    const observe = (status: number | undefined, error?: unknown) =>
      gate?.observe({
        status,
        timedOut: error instanceof TimeoutError,
        latencyMs: performance.now() - attemptStarted,
      });

    try {
      const response = await ky(url, {
        method: op.method,
        headers: { "x-api-key": config.apiKey, accept: "application/json" },
        ...(body === undefined ? {} : { json: body }),
        timeout: timeoutMs,
        signal: options.signal,
        ...(config.fetch ? { fetch: config.fetch } : {}),
        retry: {
          limit: retry.maxRetries,
          methods: ["get", "post", "put", "delete"],
          statusCodes: ALL_STATUSES.filter(isRetryableStatus),
          afterStatusCodes: RETRY_AFTER_STATUSES,
          maxRetryAfter: retry.retryAfterCapMs,
          retryOnTimeout: true,
          delay: (n) => backoffDelay(n, retry),
          shouldRetry: ({ error }) => {
            const failure = classify(error);
            if (!failure || !mayRetry(failure, isIdempotent(op))) return false;
            // Leave a Retry-After to ky, which honours it up to maxRetryAfter.
            if (error instanceof HTTPError && hasRetryAfter(error)) return undefined;
            return true;
          },
        },
        hooks: {
          beforeRequest: [
            async () => {
              await gate?.acquire(options.signal);
              attemptStarted = performance.now();
            },
          ],
          afterResponse: [(_request, _options, response) => observe(response.status)],
          beforeRetry: [
            async ({ error, retryCount }) => {
              attempts = retryCount + 1;
              if (error instanceof HTTPError) await drain(error.response);
              else observe(undefined, error);
              logger.debug(
                { ...where, retry: retryCount, reason: describeFailure(classify(error)) },
                "api retry",
              );
            },
          ],
        },
      });
      const result = await readResponse(name, response, op.response, secrets);
      logger.debug(
        { ...where, status: response.status, attempts, ms: Math.round(performance.now() - started) },
        "api request",
      );
      return result as ResponseOf<N>;
    } catch (error) {
      if (error instanceof UnexpectedResponseError || isUserAbort(error, options.signal)) throw error;
      if (!(error instanceof HTTPError)) observe(undefined, error);
      const apiError = await toApiError(name, error, timeoutMs, secrets);
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
  };
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

async function readResponse(
  name: OperationName,
  response: Response,
  schema: z.ZodType | undefined,
  secrets: string[],
): Promise<unknown> {
  const details = { operation: name, status: response.status, requestId: requestIdOf(response) };
  const text = await response.text();
  if (!schema) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UnexpectedResponseError(details, [
      { path: "", message: text.trim() ? "is not JSON" : "is empty, a JSON body was expected" },
    ]);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issues = toFieldIssues(parsed.error).map((i) => ({
      ...i,
      message: scrubSecrets(i.message, secrets),
    }));
    throw new UnexpectedResponseError(details, issues);
  }
  return parsed.data;
}

async function toApiError(
  name: OperationName,
  error: unknown,
  timeoutMs: number,
  secrets: string[],
): Promise<APIError> {
  if (error instanceof HTTPError) {
    const { response } = error;
    const body = readErrorBody(await response.text().catch(() => ""));
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
  const networkCode = networkErrorCode(error);
  return new APIConnectionError(
    { operation: name, networkCode },
    scrubSecrets(`connection error: ${causeMessage(error) ?? networkCode ?? "unknown"}`, secrets),
  );
}

function classify(error: unknown): Failure | undefined {
  if (error instanceof HTTPError) return { kind: "status", status: error.response.status };
  if (error instanceof TimeoutError) return { kind: "timeout" };
  if (error instanceof Error && error.name === "AbortError") return undefined;
  return { kind: "network", code: networkErrorCode(error) };
}

function describeFailure(failure: Failure | undefined): string {
  if (!failure) return "unknown";
  if (failure.kind === "status") return `HTTP ${failure.status}`;
  return failure.kind === "timeout" ? "timeout" : `network ${failure.code ?? "error"}`;
}

function hasRetryAfter(error: HTTPError): boolean {
  return RETRY_AFTER_STATUSES.includes(error.response.status) && error.response.headers.has("retry-after");
}

function requestIdOf(response: Response): string | undefined {
  for (const header of REQUEST_ID_HEADERS) {
    const value = response.headers.get(header);
    if (value) return value;
  }
  return undefined;
}

function causeMessage(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown })?.cause;
  if (cause instanceof Error && cause.message) return cause.message;
  return error instanceof Error ? error.message : undefined;
}

function isUserAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && !(error instanceof HTTPError) && !(error instanceof TimeoutError);
}

async function drain(response: Response): Promise<void> {
  await response.arrayBuffer().catch(() => undefined);
}
