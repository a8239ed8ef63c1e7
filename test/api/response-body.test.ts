import type { ServerResponse } from "node:http";
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import {
  AmbiguousWriteError,
  APIConnectionTimeoutError,
  type AttemptOutcome,
  type ClientOptions,
  createClient,
  InternalServerError,
  UnexpectedResponseError,
} from "../../src/api/index.ts";
import { API_KEY } from "../support/fixtures.ts";
import {
  sendJson,
  sendPaddedJson,
  sendTrickle,
  startHttpServer,
  type TestServer,
} from "../support/http-server.ts";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientOf(handle: (res: ServerResponse) => void, options: ClientOptions = {}) {
  server = await startHttpServer((_req, res) => handle(res));
  return createClient({
    baseUrl: server.url,
    apiKey: API_KEY,
    maxRetries: 0,
    retry: { baseDelayMs: 1 },
    ...options,
  });
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

/** Resolves with how long the promise took to settle, in ms. */
async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

const CONTACT = { phone: "+14155550123", first_name: "Ana" };

describe("a create answered 2xx whose body can't be read is ambiguous", () => {
  it("a create answered 200 with an HTML body is ambiguous, not a refusal", async () => {
    const client = await clientOf(
      (res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end("<html>stored</html>");
      },
      { maxRetries: 3 },
    );
    const error = await failureOf(client.contacts.create("seg1", CONTACT));
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    expect((error as AmbiguousWriteError).cause).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toMatch(/contacts\.create failed with HTTP 200: outcome unknown/);
    expect(server!.requests).toHaveLength(1);
    expect(inspect(error, { depth: 8, showHidden: true }) + JSON.stringify(error)).not.toContain(API_KEY);
  });

  it("a create answered 201 with JSON that doesn't fit its schema is ambiguous too", async () => {
    const client = await clientOf((res) => {
      res.writeHead(201, { "content-type": "application/json" });
      res.end("[1, 2]");
    });
    const error = await failureOf(client.segments.create({ name: "maybe" }));
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    expect((error as AmbiguousWriteError).cause).toBeInstanceOf(UnexpectedResponseError);
  });

  it("a read answered 200 with an HTML body stays an UnexpectedResponseError", async () => {
    const client = await clientOf((res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>oops</html>");
    });
    const error = await failureOf(client.contacts.list("seg1"));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).not.toBeInstanceOf(AmbiguousWriteError);
  });
});

describe("the timeout covers the whole response, headers and body", () => {
  it("a body that trickles one byte every 100 ms fails at the timeout, and is retried for a read", async () => {
    const client = await clientOf((res) => sendTrickle(res, 200, { everyMs: 100 }), {
      timeoutMs: 300,
      maxRetries: 1,
    });
    const { value: error, ms } = await timed(() => failureOf(client.contacts.list("seg1")));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    // The retry of a read that timed out waits twice as long (read-patience.ts).
    expect((error as Error).message).toBe("contacts.list failed: timed out after 600 ms");
    expect(server!.requests).toHaveLength(2);
    expect(ms).toBeLessThan(1_500);
  }, 5_000);

  it("a signal aborts a body that trickles", async () => {
    const client = await clientOf((res) => sendTrickle(res, 200, { everyMs: 100 }), { timeoutMs: 10_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const { value: error, ms } = await timed(() =>
      failureOf(client.contacts.list("seg1", { signal: controller.signal })),
    );
    expect((error as Error).name).toBe("AbortError");
    expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
    expect(ms).toBeLessThan(1_500);
  }, 5_000);

  it("a signal aborts the wait before a retry, with the caller's reason", async () => {
    const client = await clientOf((res) => sendJson(res, 503, { message: "busy" }), {
      maxRetries: 2,
      retry: { baseDelayMs: 10_000, maxDelayMs: 10_000 },
    });
    const controller = new AbortController();
    const reason = new Error("stopping");
    setTimeout(() => controller.abort(reason), 200);
    const { value: error, ms } = await timed(() =>
      failureOf(client.segments.list({ signal: controller.signal })),
    );
    expect(error).toBe(reason);
    expect(server!.requests).toHaveLength(1);
    expect(ms).toBeLessThan(1_500);
  }, 5_000);

  it("a create whose body trickles past the timeout is ambiguous, caused by the timeout", async () => {
    const client = await clientOf((res) => sendTrickle(res, 200, { everyMs: 100, first: "{" }), {
      timeoutMs: 300,
      maxRetries: 2,
    });
    const error = await failureOf(client.contacts.create("seg1", CONTACT));
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    expect((error as AmbiguousWriteError).cause).toBeInstanceOf(APIConnectionTimeoutError);
    expect(server!.requests).toHaveLength(1);
  }, 5_000);

  it("a failure status whose body trickles ends at the timeout too", async () => {
    const client = await clientOf((res) => sendTrickle(res, 503, { everyMs: 100, first: "{" }), {
      timeoutMs: 300,
    });
    const { value: error, ms } = await timed(() => failureOf(client.segments.list()));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(ms).toBeLessThan(1_500);
  }, 5_000);

  it("a body that arrives slowly but within the timeout is read", async () => {
    let sent = 0;
    const client = await clientOf(
      (res) => {
        res.writeHead(200, { "content-type": "application/json" });
        const timer = setInterval(() => {
          sent += 1;
          if (sent < 4) res.write(" ");
          else {
            clearInterval(timer);
            res.end("[]");
          }
        }, 30);
      },
      { timeoutMs: 1_000 },
    );
    await expect(client.contacts.list("seg1")).resolves.toEqual([]);
  });
});

describe("response bodies have a size cap", () => {
  const MIB = 1024 * 1024;

  it("a body over the cap fails clearly without buffering it", async () => {
    let written: Promise<number> | undefined;
    const client = await clientOf(
      (res) => {
        written = sendPaddedJson(res, 200, [], 64 * MIB);
      },
      { maxResponseBytes: 256 * 1024, maxRetries: 2 },
    );
    const error = await failureOf(client.contacts.list("seg1"));
    expect(error).toMatchObject({ name: "ResponseTooLargeError", operation: "contacts.list", status: 200 });
    expect((error as Error).message).toBe(
      "contacts.list failed with HTTP 200: the response body is larger than the cap of 262144 bytes (maxResponseBytes)",
    );
    // Not retried: the same body would come again.
    expect(server!.requests).toHaveLength(1);
    // The client stopped reading: the server could not write the whole body.
    expect(await written).toBeLessThan(32 * MIB);
  }, 10_000);

  it("a declared Content-Length over the cap fails before the body is read", async () => {
    const client = await clientOf(
      (res) => void sendPaddedJson(res, 200, [], 2 * MIB, { "content-length": String(2 * MIB + 2) }),
      {
        maxResponseBytes: MIB,
      },
    );
    await expect(client.contacts.list("seg1")).rejects.toMatchObject({ name: "ResponseTooLargeError" });
  });

  it("the cap can be raised per request", async () => {
    const client = await clientOf((res) => void sendPaddedJson(res, 200, [], 300 * 1024), {
      maxResponseBytes: 256 * 1024,
    });
    await expect(client.contacts.list("seg1")).rejects.toMatchObject({ name: "ResponseTooLargeError" });
    await expect(client.contacts.list("seg1", { maxResponseBytes: MIB })).resolves.toEqual([]);
  });

  it("a create whose body is over the cap is ambiguous", async () => {
    const client = await clientOf((res) => void sendPaddedJson(res, 200, { message: "ok" }, 2 * MIB), {
      maxResponseBytes: MIB,
    });
    const error = await failureOf(client.contacts.create("seg1", CONTACT));
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    expect((error as AmbiguousWriteError).cause).toMatchObject({ name: "ResponseTooLargeError" });
  });

  it("a failure status with a body over the cap keeps its meaning", async () => {
    const client = await clientOf((res) => void sendPaddedJson(res, 503, { message: "down" }, 2 * MIB), {
      maxResponseBytes: MIB,
    });
    await expect(client.segments.list()).rejects.toBeInstanceOf(InternalServerError);
  });
});

describe("a gate hears each attempt once", () => {
  it("every attempt, a retry included, waits for the gate first", async () => {
    let acquired = 0;
    const gate = {
      acquire: async () => {
        acquired += 1;
      },
      observe: () => undefined,
    };
    let calls = 0;
    const client = await clientOf(
      (res) => {
        calls += 1;
        sendJson(res, calls < 3 ? 503 : 200, calls < 3 ? { message: "busy" } : []);
      },
      { gate, maxRetries: 2 },
    );
    await client.segments.list();
    expect([calls, acquired]).toEqual([3, 3]);
  });

  it("its status when the headers come, and a timeout as a timeout", async () => {
    const heard: AttemptOutcome[] = [];
    const gate = { acquire: async () => undefined, observe: (o: AttemptOutcome) => void heard.push(o) };
    let calls = 0;
    const client = await clientOf(
      (res) => {
        calls += 1;
        if (calls === 1) sendJson(res, 503, { message: "busy" });
        else if (calls === 2) sendJson(res, 200, []);
        else setTimeout(() => sendJson(res, 200, []), 500);
      },
      { gate, maxRetries: 1, timeoutMs: 200 },
    );
    await client.segments.list();
    expect(heard.map((o) => [o.status, o.timedOut])).toEqual([
      [503, false],
      [200, false],
    ]);
    heard.length = 0;
    await expect(client.segments.list({ maxRetries: 0 })).rejects.toBeInstanceOf(APIConnectionTimeoutError);
    expect(heard.map((o) => [o.status, o.timedOut])).toEqual([[undefined, true]]);
  });
});
