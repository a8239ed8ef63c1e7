import { createHash, timingSafeEqual } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import { formatIssues } from "../api/errors/index.ts";
import { type Operation, operations } from "../api/operations.ts";
import { toFieldIssues } from "../api/zod-issues.ts";
import { type CallModel, type CampaignSegmentMode, DEFAULT_CALL_MODEL } from "./call-plan.ts";
import { createSimClock, type SimClock } from "./clock.ts";
import { seedDemoRecords } from "./demo-records.ts";
import { createFaults, type FaultOptions, type Faults, NO_FAULTS, type Rejection } from "./faults.ts";
import { audienceOf, type HandlerContext, handlers, startDueCampaigns } from "./handlers.ts";
import { createIdempotencyKeys } from "./idempotency.ts";
import type { PhoneSpelling } from "./phone-spelling.ts";
import { createRandom, hash32 } from "./prng.ts";
import { SimError } from "./sim-error.ts";
import { loadState, openDurableState } from "./state-file.ts";
import { SimStats } from "./stats.ts";
import { Store } from "./store.ts";

export interface SimulatorOptions {
  apiKey: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  seed?: number;
  /** Simulated seconds per real second. */
  timeScale?: number;
  faults?: Partial<FaultOptions>;
  callModel?: Partial<CallModel>;
  /**
   * Keep the data in this JSON file across restarts. Every change is journaled beside it
   * (`<file>.journal`, fsync'd) before the response, so even a kill -9 loses nothing answered.
   */
  stateFile?: string;
  imageBaseUrl?: string;
  /** Add a demo assistant and dialer with fixed ids (the embedded default's example job uses them). */
  demoRecords?: boolean;
  /** How phones read back are written (audiences, contact lists); default as given. */
  phoneSpelling?: PhoneSpelling;
  /** `fixed` (default): a started campaign calls its segment as it stood; `live`: as it stands at each turn. */
  campaignSegment?: CampaignSegmentMode;
  /** Honour an `Idempotency-Key` header on creates: the same key makes one record (not in the spec). */
  idempotencyKeys?: boolean;
  /** Told of every request as it arrives, before it is handled (the campaigns benchmark counts them). */
  onRequest?: (method: string, url: string) => void;
}

export interface Simulator {
  /** Base URL, ending in `/api/v1`. */
  url: string;
  port: number;
  store: Store;
  clock: SimClock;
  stats: SimStats;
  /**
   * Changes the faults while running. A `rateLimit` or a `rateLimitSchedule` replaces the limit in
   * force (given alone, it clears the other); a new schedule starts now.
   */
  setFaults(faults: Partial<FaultOptions>): void;
  /** Changes how phones read back are written, while running. */
  setPhoneSpelling(spelling: PhoneSpelling): void;
  /** Epoch ms (real time) from which the rate-limit schedule counts its seconds. */
  readonly rateLimitScheduleStartedAt: number;
  close(): Promise<void>;
}

export const API_PREFIX = "/api/v1";

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Starts the simulated calling service over HTTP. */
export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  if (!options.apiKey) throw new Error("The simulator needs an API key");
  const seed = options.seed ?? 1;
  const expectedKey = digest(options.apiKey);
  const saved = options.stateFile ? loadState(options.stateFile) : undefined;
  const store = new Store(saved?.data);
  const clock = createSimClock(options.timeScale ?? 1);
  const stats = new SimStats();
  const faultRandom = createRandom(hash32(`${seed}:faults`));
  let faults: Faults = createFaults({ ...NO_FAULTS, ...options.faults }, faultRandom);
  const ctx: HandlerContext = {
    store,
    clock,
    seed,
    callModel: { ...DEFAULT_CALL_MODEL, ...options.callModel },
    imageBaseUrl: options.imageBaseUrl ?? "https://images.simulator.invalid",
    recordingBaseUrl: "https://recordings.simulator.invalid",
    phoneSpelling: options.phoneSpelling ?? "as-given",
    campaignSegment: options.campaignSegment ?? "fixed",
  };

  for (const change of saved?.changes ?? []) store.replay(change, (campaign) => audienceOf(ctx, campaign));
  if (options.demoRecords) seedDemoRecords(store, ctx.imageBaseUrl);
  const state = options.stateFile ? await openDurableState(options.stateFile, store) : undefined;

  const idempotency = createIdempotencyKeys(options.idempotencyKeys === true);
  let nextRequestId = 0;
  const app = Fastify({
    logger: false,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: true,
    genReqId: () => `sim-${(++nextRequestId).toString(36)}`,
  });

  // Empty bodies are allowed (operations without a body); anything else must be JSON.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, text, done) => {
    const body = String(text);
    if (body.trim() === "") return done(null, undefined);
    try {
      done(null, JSON.parse(body));
    } catch {
      done(Object.assign(new Error("the request body is not valid JSON"), { statusCode: 400 }), undefined);
    }
  });

  const fail = (reply: FastifyReply, status: number, message: string) =>
    reply.code(status).send({ error: status, message });

  app.setErrorHandler((error: Error & { statusCode?: number }, _req, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    return fail(reply, status, status === 500 ? "internal error" : error.message);
  });
  app.setNotFoundHandler((req, reply) =>
    fail(reply, 404, `no operation ${req.method} ${req.url.split("?")[0]}`),
  );
  const watch = options.onRequest;
  if (watch) app.addHook("onRequest", async (req) => watch(req.method, req.url));
  app.addHook("onSend", async (req, reply) => {
    reply.header("x-request-id", req.id);
  });
  app.addHook("onResponse", async (req, reply) => {
    const name = req.routeOptions.config as { operation?: string } | undefined;
    stats.record(name?.operation ?? "unknown", reply.statusCode);
  });

  const authorized = (req: FastifyRequest) => {
    const key = req.headers["x-api-key"];
    return typeof key === "string" && timingSafeEqual(digest(key), expectedKey);
  };

  const reject = (reply: FastifyReply, r: Rejection) => {
    if (r.retryAfterSec !== undefined) reply.header("retry-after", String(r.retryAfterSec));
    return fail(reply, r.status, r.message);
  };

  async function handle(op: Operation, req: FastifyRequest, reply: FastifyReply) {
    if (!authorized(req)) return fail(reply, 401, "missing or invalid x-api-key header");
    const refused = faults.admit(Date.now());
    if (refused) return reject(reply, refused);
    const active = faults;
    stats.peakInflight = Math.max(stats.peakInflight, active.inflight);
    try {
      const delay = active.delayMs();
      if (delay > 0) await sleep(delay);
      const injected = active.injectedError();
      if (injected) return reject(reply, injected);

      const id = (req.query as { id?: unknown }).id;
      if (op.id && (typeof id !== "string" || id.trim() === "")) {
        return fail(reply, 400, `query parameter id is required: the ${op.id} identifier`);
      }
      let body: Record<string, unknown> | undefined;
      if (op.request) {
        if (req.body === undefined) return fail(reply, 400, "a JSON request body is required");
        const parsed = op.request.safeParse(req.body);
        if (!parsed.success)
          return fail(reply, 400, `Invalid request: ${formatIssues(toFieldIssues(parsed.error))}`);
        body = parsed.data as Record<string, unknown>;
      }

      const name = op.name === "campaigns.create" ? String(body?.campaigns_name) : undefined;
      if (name !== undefined && active.options.refuseCampaigns.some((s) => name.includes(s)))
        return fail(reply, 400, `campaigns_name: campaign ${name} is refused`);
      startDueCampaigns(ctx);
      const replayed = idempotency.seen(op, req);
      if (replayed) return reply.code(replayed.status).send(replayed.body);
      const result = handlers[op.name as keyof typeof handlers](ctx, { id: id as string | undefined, body });
      idempotency.remember(op, req, result);
      const write = op.effect !== "read";
      if (write) stats.applied += 1;
      // Nothing is answered before the changes it may show are on disk (a read can start a campaign).
      await state?.persisted().catch((error) => {
        throw new SimError(500, `the change was applied but could not be saved: ${String(error)}`);
      });
      if (write) {
        const failure = active.commitThenFail();
        if (failure) {
          stats.committedThenFailed += 1;
          if (failure === "drop") {
            reply.hijack();
            req.raw.socket.destroy();
            return reply;
          }
          if (failure === "html")
            return reply
              .code(200)
              .type("text/html")
              .send("<html><body><h1>Service temporarily unavailable</h1></body></html>");
          return fail(reply, 500, "internal error after the change was saved");
        }
      }
      if (result.status === 204) return reply.code(204).send();
      return reply.code(result.status).send(result.body);
    } catch (error) {
      if (error instanceof SimError) return fail(reply, error.status, error.message);
      throw error;
    } finally {
      active.release();
    }
  }

  for (const op of Object.values(operations) as Operation[]) {
    app.route({
      method: op.method,
      url: API_PREFIX + op.path,
      config: { operation: op.name },
      handler: (req, reply) => handle(op, req, reply),
    });
  }

  const address = await app.listen({ port: options.port ?? 0, host: options.host ?? "127.0.0.1" });
  const port = Number(new URL(address).port);
  const host = options.host && options.host !== "0.0.0.0" ? options.host : "127.0.0.1";

  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}${API_PREFIX}`,
    port,
    store,
    clock,
    stats,
    setPhoneSpelling(spelling) {
      ctx.phoneSpelling = spelling;
    },
    setFaults(partial) {
      const limit: Partial<FaultOptions> =
        partial.rateLimitSchedule !== undefined
          ? { rateLimit: 0 }
          : partial.rateLimit !== undefined
            ? { rateLimitSchedule: [] }
            : {};
      const restart = partial.rateLimitSchedule !== undefined;
      faults = createFaults(
        { ...faults.options, ...limit, ...partial },
        faultRandom,
        restart ? Date.now() : faults.scheduleStartedAt,
      );
    },
    get rateLimitScheduleStartedAt() {
      return faults.scheduleStartedAt;
    },
    async close() {
      await app.close();
      await state?.close();
    },
  };
}
