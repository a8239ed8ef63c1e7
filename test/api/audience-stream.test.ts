import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { NO_PHONE, readPlainEntry } from "../../src/api/audience-fast-path.ts";
import {
  APIConnectionTimeoutError,
  type AudienceEntry,
  type AudienceOddities,
  type AudienceSink,
  type ClientOptions,
  createClient,
  ResponseTooLargeError,
  readAudienceEntry,
  UnexpectedResponseError,
} from "../../src/api/index.ts";
import { API_KEY } from "../support/fixtures.ts";
import { sendJson, sendTrickle, startHttpServer, type TestServer } from "../support/http-server.ts";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const entry = (i: number, over: Record<string, unknown> = {}) => ({
  phone: `+1415555${String(i).padStart(4, "0")}`,
  status: "completed",
  call_duration_in_sec: 30,
  calltranscribe: `Assistant: Hello ${i}, this is an automated call.`,
  ...over,
});

/** A sink that keeps what it is given, and counts the attempts that started. */
function collector() {
  const got = {
    starts: 0,
    entries: [] as AudienceEntry[],
    oddities: undefined as AudienceOddities | undefined,
  };
  const sink: AudienceSink<number> = {
    start() {
      got.starts += 1;
      got.entries = [];
    },
    entry: (e) => void got.entries.push(e),
    finish(oddities) {
      got.oddities = oddities;
      return got.entries.length;
    },
  };
  return { got, sink };
}

async function clientOf(
  handle: Parameters<typeof startHttpServer>[0],
  options: ClientOptions = {},
): Promise<ReturnType<typeof createClient>> {
  server = await startHttpServer(handle);
  return createClient({
    baseUrl: server.url,
    apiKey: API_KEY,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    ...options,
  });
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

describe("a streamed audience (campaigns.audiencesStream)", () => {
  it("is read entry by entry, never whole: far larger than maxResponseBytes, which caps one entry", async () => {
    const audience = Array.from({ length: 3_000 }, (_, i) => entry(i));
    const client = await clientOf((_req, res) => sendJson(res, 200, audience), {
      maxResponseBytes: 4 * 1024,
    });
    const { got, sink } = collector();
    expect(await client.campaigns.audiencesStream("cmp_1", sink)).toBe(3_000);
    expect(got.entries[2_999]).toMatchObject({ phone: "+14155552999", call_duration_in_sec: "30" });
    // The buffered read of the same body stops at the cap.
    expect(await failureOf(client.campaigns.audiencesReport("cmp_1"))).toBeInstanceOf(ResponseTooLargeError);
  });

  it("an entry larger than the cap fails the read, and is not asked again", async () => {
    const audience = [entry(1), entry(2, { calltranscribe: "x".repeat(300_000) }), entry(3)];
    const client = await clientOf((_req, res) => sendJson(res, 200, audience), {
      maxResponseBytes: 64 * 1024,
    });
    const error = await failureOf(client.campaigns.audiencesStream("cmp_1", collector().sink));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(server!.requests).toHaveLength(1);
  });

  it("a body cut midway is read again from the start; the sink starts afresh and sees each entry once", async () => {
    const audience = Array.from({ length: 2_000 }, (_, i) => entry(i, i === 7 ? { call_sentiment: {} } : {}));
    const text = JSON.stringify(audience);
    let calls = 0;
    const client = await clientOf((_req, res) => {
      calls += 1;
      if (calls === 1) {
        // Chunked, half the body, then the connection drops.
        res.writeHead(200, { "content-type": "application/json" });
        res.write(text.slice(0, text.length / 2), () => res.destroy());
      } else sendJson(res, 200, text);
    });
    const { got, sink } = collector();
    expect(await client.campaigns.audiencesStream("cmp_1", sink)).toBe(2_000);
    expect(got.starts).toBe(2);
    expect(new Set(got.entries.map((e) => e.phone)).size).toBe(2_000);
    // What tolerant reading counted is the last attempt's alone.
    expect(got.oddities).toEqual({ odd: [{ field: "call_sentiment", count: 1 }], dropped: 0 });
  });

  it("a cut body with no retries left fails as a connection error", async () => {
    const text = JSON.stringify(Array.from({ length: 2_000 }, (_, i) => entry(i)));
    const client = await clientOf(
      (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.write(text.slice(0, 10_000), () => res.destroy());
      },
      { maxRetries: 1 },
    );
    const error = await failureOf(client.campaigns.audiencesStream("cmp_1", collector().sink));
    expect((error as Error).name).toBe("APIConnectionError");
    expect(server!.requests).toHaveLength(2);
  });

  it("a body that is not a JSON array is an unexpected response, not asked again", async () => {
    for (const body of ['{"entries": []}', "[1, 2", "<html>busy</html>", "", "[] trailing"]) {
      const client = await clientOf((_req, res) => sendJson(res, 200, body));
      const error = await failureOf(client.campaigns.audiencesStream("cmp_1", collector().sink));
      expect(error, body).toBeInstanceOf(UnexpectedResponseError);
      expect(server!.requests, body).toHaveLength(1);
      await server!.close();
      server = undefined;
    }
  });

  it("the timeout covers the whole streamed body: one that trickles is cut, and retried as a read", async () => {
    const client = await clientOf(
      (_req, res) =>
        sendTrickle(res, 200, { everyMs: 20, first: `[${JSON.stringify(entry(1))}`, chunk: " " }),
      { timeoutMs: 300, maxRetries: 1 },
    );
    const error = await failureOf(client.campaigns.audiencesStream("cmp_1", collector().sink));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(server!.requests).toHaveLength(2);
  });

  it("a failure of the sink itself is its own error, not retried", async () => {
    const client = await clientOf((_req, res) => sendJson(res, 200, [entry(1), entry(2)]));
    const boom = new Error("storage down");
    const sink: AudienceSink<void> = {
      start() {},
      entry() {
        throw boom;
      },
      finish() {},
    };
    expect(await failureOf(client.campaigns.audiencesStream("cmp_1", sink))).toBe(boom);
    const slow: AudienceSink<void> = {
      start() {},
      entry() {},
      afterChunk: () => Promise.reject(boom),
      finish() {},
    };
    expect(await failureOf(client.campaigns.audiencesStream("cmp_1", slow))).toBe(boom);
    expect(server!.requests).toHaveLength(2);
  });
});

describe("plain entries are read by hand, like the schema would", () => {
  const value = fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.constantFrom("", " ", "+14155550101", "true", "false", "Completed"),
    fc.integer({ min: -5, max: 5 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.constant({}),
    fc.constant([1]),
  );
  const fields = [
    "id",
    "_id",
    "phone",
    "first_name",
    "status",
    "call_duration_in_sec",
    "calltranscribe",
    "is_call_transferred",
    "is_message_sent",
    "error",
    "extra",
  ];
  /** An entry as JSON would give it: absent keys stay absent. */
  const raw = fc
    .dictionary(fc.constantFrom(...fields), value, { maxKeys: fields.length })
    .map((d) => JSON.parse(JSON.stringify(d)) as Record<string, unknown>);
  /** Values compared as JSON: a key holding undefined and an absent key are the same. */
  const same = (v: unknown) => JSON.parse(JSON.stringify(v ?? null));

  it("agrees with the AudienceEntry schema on any entry it reads, and leaves the others to it", () => {
    fc.assert(
      fc.property(raw, (r) => {
        const bySchema = readAudienceEntry(structuredClone(r));
        const byHand = readPlainEntry(structuredClone(r));
        if (byHand === undefined) return; // the schema reads it (and names what doesn't fit)
        expect(bySchema.odd).toEqual([]);
        if (byHand === NO_PHONE) expect(bySchema.entry).toBeUndefined();
        else expect(same(byHand)).toEqual(same(bySchema.entry));
      }),
      { numRuns: 2_000 },
    );
  });

  it("reads numbers, numeric flags, nulls and _id as the schema does", () => {
    const r = { _id: 7, phone: "+14155550101", call_duration_in_sec: 42, is_message_sent: 1, error: null };
    expect(same(readPlainEntry({ ...r }))).toEqual(same(readAudienceEntry({ ...r }).entry));
    expect(readPlainEntry({ ...r })).toMatchObject({
      id: "7",
      call_duration_in_sec: "42",
      is_message_sent: true,
    });
    expect(readPlainEntry({ phone: "  " })).toBe(NO_PHONE);
    expect(readPlainEntry({ phone: "+1", status: {} })).toBeUndefined();
  });
});
