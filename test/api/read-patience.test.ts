import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import {
  AmbiguousWriteError,
  APIConnectionTimeoutError,
  type AttemptRecord,
  type ClientOptions,
  createClient,
} from "../../src/api/index.ts";
import { API_KEY } from "../support/fixtures.ts";
import { sendJson, startHttpServer, type TestServer } from "../support/http-server.ts";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TIMEOUT_MS = 200;
/** Every answer comes 1.5 times the client's timeout after its request. */
const LATE_MS = TIMEOUT_MS * 1.5;

/** A real server that answers every request `delayMs` late: a record to a create or update, `[]` to a read. */
async function lateClient(delayMs: number, options: ClientOptions = {}) {
  const attempts: AttemptRecord[] = [];
  server = await startHttpServer((req, res: ServerResponse) => {
    const timer = setTimeout(() => {
      if (/\/(create|update)\b/.test(req.url ?? "")) sendJson(res, 200, { id: "seg_1", name: "late" });
      else sendJson(res, 200, []);
    }, delayMs);
    res.on("close", () => clearTimeout(timer));
  });
  const client = createClient({
    baseUrl: server.url,
    apiKey: API_KEY,
    timeoutMs: TIMEOUT_MS,
    maxRetries: 2,
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
    observer: (a) => void attempts.push(a),
    ...options,
  });
  return { client, attempts };
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

describe("a read is more patient after each timeout; a write is not", () => {
  it("a listing (contacts.list, a POST read) answered 1.5 times the timeout late gets its answer on a retry", async () => {
    const { client, attempts } = await lateClient(LATE_MS);
    await expect(client.contacts.list("seg_1")).resolves.toEqual([]);
    expect(attempts.map((a) => a.status)).toEqual(["timeout", "200"]);
    expect(server!.requests).toHaveLength(2);
  });

  it("a GET listing too (segments.list), and a streamed read (campaigns.audiencesStream)", async () => {
    const { client } = await lateClient(LATE_MS);
    await expect(client.segments.list()).resolves.toEqual([]);
    const entries: unknown[] = [];
    await client.campaigns.audiencesStream("cmp_1", {
      start: () => {
        entries.length = 0;
      },
      entry: (e) => void entries.push(e),
      finish: () => entries.length,
    });
    expect(server!.requests.map((r) => r.url.split("?")[0])).toEqual([
      "/api/v1/segment/list",
      "/api/v1/segment/list",
      "/api/v1/campaign/audiences",
      "/api/v1/campaign/audiences",
    ]);
  });

  it("a create answered as late still times out at the timeout, once: ambiguous as before", async () => {
    const { client, attempts } = await lateClient(LATE_MS);
    const started = performance.now();
    const error = await failureOf(client.segments.create({ name: "late" }));
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    const cause = (error as AmbiguousWriteError).cause as APIConnectionTimeoutError;
    expect(cause).toBeInstanceOf(APIConnectionTimeoutError);
    expect(cause.timeoutMs).toBe(TIMEOUT_MS);
    expect(performance.now() - started).toBeLessThan(LATE_MS);
    expect(attempts.map((a) => a.status)).toEqual(["timeout"]);
    expect(server!.requests).toHaveLength(1);
  });

  it("an update (idempotent, but a write) keeps one timeout for every attempt", async () => {
    const { client, attempts } = await lateClient(LATE_MS);
    const error = await failureOf(client.segments.update("seg_1", { name: "later" }));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as APIConnectionTimeoutError).timeoutMs).toBe(TIMEOUT_MS);
    expect(attempts.map((a) => a.status)).toEqual(["timeout", "timeout", "timeout"]);
    for (const a of attempts) expect(a.durationMs).toBeLessThan(LATE_MS);
  });

  it("each retry after a timeout waits twice as long, up to 4 times the timeout", async () => {
    const { client, attempts } = await lateClient(10_000, { timeoutMs: 50, maxRetries: 4 });
    const error = await failureOf(client.segments.list());
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toBe("segments.list failed: timed out after 200 ms");
    expect(attempts.map((a) => a.status)).toEqual(["timeout", "timeout", "timeout", "timeout", "timeout"]);
    const expected = [50, 100, 200, 200, 200];
    attempts.forEach((a, i) => {
      expect(a.durationMs).toBeGreaterThanOrEqual(expected[i]! - 5);
      expect(a.durationMs).toBeLessThan(expected[i]! + 80);
    });
  });

  it("a retry after a 5xx keeps the timeout it had: only a timeout makes it wait longer", async () => {
    let calls = 0;
    const attempts: AttemptRecord[] = [];
    server = await startHttpServer((_req, res) => {
      calls += 1;
      if (calls === 1) sendJson(res, 503, { message: "busy" });
      else {
        const timer = setTimeout(() => sendJson(res, 200, []), LATE_MS);
        res.on("close", () => clearTimeout(timer));
      }
    });
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      timeoutMs: TIMEOUT_MS,
      maxRetries: 2,
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
      observer: (a) => void attempts.push(a),
    });
    await expect(client.segments.list()).resolves.toEqual([]);
    expect(attempts.map((a) => a.status)).toEqual(["503", "timeout", "200"]);
  });
});
