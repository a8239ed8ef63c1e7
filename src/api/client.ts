import {
  type AudienceEntries,
  AudienceEntriesBody,
  type AudienceSink,
  audienceArrayReader,
} from "./audience-entries.ts";
import { VcwError } from "./errors/index.ts";
import type { RequestGate } from "./gate.ts";
import { type ClientLogger, silentLogger } from "./logger.ts";
import type { RequestObserver } from "./observer.ts";
import type { OperationName, RequestOf, ResponseOf } from "./operations.ts";
import { DEFAULT_RETRY, type RetryOptions } from "./retry-policy.ts";
import { createTransport, type RequestOptions } from "./transport.ts";
import type { Fetch } from "./web-types.ts";
import { DEFAULT_MAX_RESPONSE_BYTES } from "./whole-body.ts";

export interface ClientOptions {
  /** Base URL ending in `/api/v1`. Default: `VCS_BASE_URL`. */
  baseUrl?: string;
  /** Default: `VCS_API_KEY`. */
  apiKey?: string;
  /** Per attempt, from sending to the last byte of the body. Default 30 s. */
  timeoutMs?: number;
  /** Cap of a response body, counted as it streams. Default 512 MiB. */
  maxResponseBytes?: number;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  retry?: Partial<RetryOptions>;
  logger?: ClientLogger;
  /** A fetch implementation to use instead of the global one. */
  fetch?: Fetch;
  /** Admits every attempt before it is sent: a shared rate limit. */
  gate?: RequestGate;
  /** Hears every attempt of every request (operation, status, duration), e.g. for metrics. */
  observer?: RequestObserver;
  /** Send each create's idempotency key as `Idempotency-Key` (a service that honours it, docs/spec-gaps.md). */
  idempotencyKeys?: boolean;
  /** Where the defaults are read. Default: `process.env`. (Not `NodeJS.ProcessEnv`: the declarations need no @types/node.) */
  env?: Readonly<Record<string, string | undefined>>;
}

type Body<N extends OperationName> = RequestOf<N>;
type Result<N extends OperationName> = Promise<ResponseOf<N>>;

export type Client = ReturnType<typeof createClient>;

/** A typed client for the 20 operations of the Voice Assistant Calling Service. */
export function createClient(options: ClientOptions = {}) {
  const env = options.env ?? process.env;
  const baseUrl = options.baseUrl ?? env.VCS_BASE_URL;
  const apiKey = options.apiKey ?? env.VCS_API_KEY;
  if (!baseUrl) throw new VcwError("No base URL for the calling service: pass baseUrl or set VCS_BASE_URL");
  if (!apiKey) throw new VcwError("No API key for the calling service: pass apiKey or set VCS_API_KEY");
  try {
    new URL(baseUrl);
  } catch {
    throw new VcwError(`The base URL is not a URL: ${baseUrl}`);
  }
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(maxResponseBytes) || maxResponseBytes <= 0) {
    throw new VcwError(`maxResponseBytes must be a positive whole number of bytes, got ${maxResponseBytes}`);
  }
  const logger = options.logger ?? silentLogger;

  const send = createTransport({
    baseUrl,
    apiKey,
    timeoutMs: options.timeoutMs ?? 30_000,
    maxResponseBytes,
    retry: {
      ...DEFAULT_RETRY,
      ...options.retry,
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    },
    logger,
    fetch: options.fetch,
    gate: options.gate,
    observer: options.observer,
    idempotencyKeys: options.idempotencyKeys,
  });

  /**
   * A campaign's audience read entry by entry: an entry that is not an object or has no phone is
   * dropped, a field that doesn't fit is dropped from its entry; both are counted for the caller.
   */
  const audiencesReport = (campaignId: string, o?: RequestOptions): Promise<AudienceEntries> =>
    send("campaigns.audiences", { id: campaignId }, o, AudienceEntriesBody);

  /**
   * A campaign's audience streamed into `sink`, entry by entry, read like `audiencesReport`; the
   * body is never held whole, and `maxResponseBytes` caps one entry. A read that fails midway is
   * retried like any read, and the sink restarted (`start`).
   */
  const audiencesStream = <T>(campaignId: string, sink: AudienceSink<T>, o?: RequestOptions): Promise<T> =>
    send.streamed("campaigns.audiences", { id: campaignId }, o, audienceArrayReader(sink));

  /** The entries alone; what didn't fit is logged, since the caller doesn't see the report. */
  async function audiences(campaignId: string, o?: RequestOptions): Result<"campaigns.audiences"> {
    const read = await audiencesReport(campaignId, o);
    if (read.dropped > 0 || read.odd.length > 0) {
      logger.warn(
        { operation: "campaigns.audiences", campaign: campaignId, dropped: read.dropped, odd: read.odd },
        "audience entries that don't fit were read in part or left out",
      );
    }
    return read.entries;
  }

  return {
    baseUrl,
    /** Any operation by name, e.g. `request("segments.list", {})`. */
    request: send,
    dialers: {
      create: (body: Body<"dialers.create">, o?: RequestOptions): Result<"dialers.create"> =>
        send("dialers.create", { body }, o),
      update: (id: string, body: Body<"dialers.update">, o?: RequestOptions): Result<"dialers.update"> =>
        send("dialers.update", { id, body }, o),
    },
    assistants: {
      create: (body: Body<"assistants.create">, o?: RequestOptions): Result<"assistants.create"> =>
        send("assistants.create", { body }, o),
      list: (o?: RequestOptions): Result<"assistants.list"> => send("assistants.list", {}, o),
      delete: (id: string, o?: RequestOptions): Result<"assistants.delete"> =>
        send("assistants.delete", { id }, o),
    },
    segments: {
      create: (body: Body<"segments.create">, o?: RequestOptions): Result<"segments.create"> =>
        send("segments.create", { body }, o),
      update: (id: string, body: Body<"segments.update">, o?: RequestOptions): Result<"segments.update"> =>
        send("segments.update", { id, body }, o),
      list: (o?: RequestOptions): Result<"segments.list"> => send("segments.list", {}, o),
    },
    contacts: {
      create: (
        segmentId: string,
        body: Body<"contacts.create">,
        o?: RequestOptions,
      ): Result<"contacts.create"> => send("contacts.create", { id: segmentId, body }, o),
      update: (
        contactId: string,
        body: Body<"contacts.update">,
        o?: RequestOptions,
      ): Result<"contacts.update"> => send("contacts.update", { id: contactId, body }, o),
      list: (segmentId: string, o?: RequestOptions): Result<"contacts.list"> =>
        send("contacts.list", { id: segmentId }, o),
      delete: (contactId: string, o?: RequestOptions): Result<"contacts.delete"> =>
        send("contacts.delete", { id: contactId }, o),
    },
    campaigns: {
      create: (body: Body<"campaigns.create">, o?: RequestOptions): Result<"campaigns.create"> =>
        send("campaigns.create", { body }, o),
      list: (o?: RequestOptions): Result<"campaigns.list"> => send("campaigns.list", {}, o),
      audiences,
      audiencesReport,
      audiencesStream,
    },
    playground: {
      call: (body: Body<"playground.call">, o?: RequestOptions): Result<"playground.call"> =>
        send("playground.call", { body }, o),
      list: (o?: RequestOptions): Result<"playground.list"> => send("playground.list", {}, o),
    },
    knowledgeBases: {
      create: (body: Body<"knowledgeBases.create">, o?: RequestOptions): Result<"knowledgeBases.create"> =>
        send("knowledgeBases.create", { body }, o),
      list: (o?: RequestOptions): Result<"knowledgeBases.list"> => send("knowledgeBases.list", {}, o),
      delete: (id: string, o?: RequestOptions): Result<"knowledgeBases.delete"> =>
        send("knowledgeBases.delete", { id }, o),
    },
  };
}
