import { afterEach, describe, expect, it } from "vitest";
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  createClient,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnexpectedResponseError,
} from "../../src/api/index.ts";
import { API_KEY } from "../support/fixtures.ts";
import { sendJson, startHttpServer, type TestServer } from "../support/http-server.ts";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientAnswering(status: number, body: unknown, headers: Record<string, string> = {}) {
  server = await startHttpServer((_req, res) => sendJson(res, status, body, headers));
  return createClient({ baseUrl: server.url, apiKey: API_KEY, maxRetries: 0 });
}

describe("HTTP failures become one error class per kind", () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [429, RateLimitError],
    [500, InternalServerError],
    [503, InternalServerError],
    [418, APIError],
  ])("%i", async (status, ErrorClass) => {
    const client = await clientAnswering(
      status,
      { error: 7001, message: "went wrong" },
      { "x-request-id": "req-42" },
    );
    const error = (await client.segments.list().catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toMatchObject({
      status,
      code: 7001,
      apiMessage: "went wrong",
      operation: "segments.list",
      requestId: "req-42",
    });
    expect(error.message).toBe(
      `segments.list failed with HTTP ${status}: went wrong (error 7001) [request req-42]`,
    );
  });

  it("a body that is not the Error object still gives a readable message", async () => {
    const client = await clientAnswering(502, "<html>Bad gateway</html>");
    const error = (await client.segments.list().catch((e: unknown) => e)) as APIError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.apiMessage).toBe("<html>Bad gateway</html>");
    expect(error.code).toBeUndefined();
  });

  it("an empty error body falls back to the status text", async () => {
    const client = await clientAnswering(404, "");
    const error = (await client.segments.list().catch((e: unknown) => e)) as APIError;
    expect(error.apiMessage).toBe("Not Found");
  });

  it("error bodies are consumed, so the connection is reused", async () => {
    server = await startHttpServer((_req, res) =>
      sendJson(res, 404, { error: 404, message: "x".repeat(200_000) }),
    );
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, maxRetries: 0 });
    for (let i = 0; i < 10; i++) await client.segments.list().catch(() => undefined);
    // An unread 200 kB body pins its connection: each request would need a new one (10).
    expect(server.connections).toBeLessThanOrEqual(2);
  });

  it("error bodies of retried attempts are consumed too", async () => {
    server = await startHttpServer((_req, res) =>
      sendJson(res, 503, { error: 503, message: "y".repeat(200_000) }),
    );
    const client = createClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      maxRetries: 9,
      retry: { baseDelayMs: 1 },
    });
    await client.segments.list().catch(() => undefined);
    expect(server.requests).toHaveLength(10);
    expect(server.connections).toBeLessThanOrEqual(2);
  });
});

describe("responses are read tolerantly, and an unreadable one is UnexpectedResponseError", () => {
  it("ids under _id, unknown fields, numbers as strings, fillers as a string", async () => {
    const client = await clientAnswering(200, [
      { _id: "a1", name: "Ava", fillers: "umm", voice_speed: "1.2", is_filler: "true", extra: { nested: 1 } },
      { name: "No id", fillers: ["uhh"], maximum_time_per_call: 5, is_recording: 0 },
    ]);
    const [first, second] = await client.assistants.list();
    expect(first).toMatchObject({
      id: "a1",
      name: "Ava",
      fillers: ["umm"],
      voice_speed: 1.2,
      is_filler: true,
      extra: { nested: 1 },
    });
    expect(second).toMatchObject({
      id: undefined,
      fillers: ["uhh"],
      maximum_time_per_call: 5,
      is_recording: false,
    });
  });

  it("audience entries with numeric durations and null fields", async () => {
    const client = await clientAnswering(200, [
      { phone: "+14155550100", call_duration_in_sec: 42, status: "completed", error: null },
    ]);
    const [entry] = await client.campaigns.audiences("c1");
    expect(entry).toMatchObject({ call_duration_in_sec: "42", status: "completed", error: undefined });
  });

  it("a list that is not an array", async () => {
    const client = await clientAnswering(200, { items: [] });
    const error = (await client.segments.list().catch((e: unknown) => e)) as UnexpectedResponseError;
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toMatch(
      /segments\.list failed with HTTP 200: unexpected response: .*expected array/,
    );
  });

  it("a field of the wrong type names its path", async () => {
    const client = await clientAnswering(200, [{ campaigns_name: "c", is_started: "maybe" }]);
    const error = (await client.campaigns.list().catch((e: unknown) => e)) as UnexpectedResponseError;
    expect(error.issues.map((i) => i.path)).toEqual(["[0].is_started"]);
  });

  it("a success body that is not JSON", async () => {
    server = await startHttpServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>ok</html>");
    });
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY });
    await expect(client.segments.list()).rejects.toThrow(/unexpected response: is not JSON/);
  });

  it("sends the key in x-api-key and the id in the query string", async () => {
    const client = await clientAnswering(200, []);
    await client.contacts.list("seg 1/2");
    const [request] = server!.requests;
    expect(request).toMatchObject({ method: "POST", url: "/api/v1/segment/contact/list?id=seg+1%2F2" });
    expect(request!.headers["x-api-key"]).toBe(API_KEY);
    expect(request!.body).toBe("");
  });
});
