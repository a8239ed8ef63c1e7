import { describe, expect, it } from "vitest";
import {
  AudienceTally,
  createClient,
  readAudienceEntries,
  readAudienceEntry,
  UnexpectedResponseError,
} from "../../src/api/index.ts";
import { API_KEY } from "../support/fixtures.ts";
import { sendJson, startHttpServer } from "../support/http-server.ts";
import { captureLogs } from "../support/log-capture.ts";

const good = (phone: string, extra: Record<string, unknown> = {}) => ({
  phone,
  status: "completed",
  call_sentiment: "positive",
  is_call_transferred: false,
  ...extra,
});

describe("audience entries are read one by one", () => {
  it("a field that doesn't fit is dropped from its entry, the rest is kept and the field counted", () => {
    const read = readAudienceEntries([
      good("+14155550101", { call_sentiment: {} }),
      good("+14155550102", { is_call_transferred: "yes", call_sentiment: ["x"] }),
      good("+14155550103"),
    ]);
    expect(read.entries).toHaveLength(3);
    expect(read.entries[0]).toMatchObject({ phone: "+14155550101", status: "completed" });
    expect(read.entries[0]).not.toHaveProperty("call_sentiment");
    expect(read.entries[1]).toMatchObject({ phone: "+14155550102", status: "completed" });
    expect(read.entries[1]).not.toHaveProperty("is_call_transferred");
    expect(read.entries[2]).toMatchObject({ call_sentiment: "positive", is_call_transferred: false });
    expect(read.odd).toEqual([
      { field: "call_sentiment", count: 2 },
      { field: "is_call_transferred", count: 1 },
    ]);
    expect(read.dropped).toBe(0);
  });

  it("an entry that is not an object, or has no usable phone, is dropped and counted", () => {
    const read = readAudienceEntries([
      null,
      7,
      "+14155550101",
      [good("+14155550102")],
      { status: "completed" },
      good("   "),
      good("+14155550103", { phone: { e164: "+14155550103" } }),
      good("+14155550104"),
    ]);
    expect(read.entries.map((e) => e.phone)).toEqual(["+14155550104"]);
    expect(read.dropped).toBe(7);
    expect(read.odd).toEqual([{ field: "phone", count: 1 }]);
  });

  it("the codebase's tolerance still holds: unknown fields kept, ids under _id, numbers as text", () => {
    const { entries } = readAudienceEntries([
      { _id: "a1", phone: 14155550101, call_duration_in_sec: 42, error: null, vendor: { x: 1 } },
    ]);
    expect(entries).toEqual([
      expect.objectContaining({
        id: "a1",
        phone: "14155550101",
        call_duration_in_sec: "42",
        error: undefined,
        vendor: { x: 1 },
      }),
    ]);
  });

  it("one entry at a time gives the same entries and counts as the whole list", () => {
    const raw = [good("+14155550101", { call_sentiment: {} }), 5, good("+14155550102")];
    const tally = new AudienceTally();
    const entries = raw.map((r) => tally.read(r)).filter((e) => e !== undefined);
    const whole = readAudienceEntries(raw);
    expect(entries).toEqual(whole.entries);
    expect(tally.oddities()).toEqual({ odd: whole.odd, dropped: whole.dropped });
    expect(readAudienceEntry(raw[0])).toEqual({ entry: whole.entries[0], odd: ["call_sentiment"] });
  });
});

describe("the client reads campaigns.audiences per entry", () => {
  async function clientAnswering(body: unknown) {
    const server = await startHttpServer((_req, res) => sendJson(res, 200, body));
    const logs = captureLogs();
    const client = createClient({ baseUrl: server.url, apiKey: API_KEY, maxRetries: 0, logger: logs.logger });
    return { client, logs, close: () => server.close() };
  }

  it("one malformed audience entry keeps the rest readable and is counted", async () => {
    const t = await clientAnswering([
      good("+14155550101", { call_sentiment: {} }),
      good("+14155550102", { is_call_transferred: "yes" }),
      good("+14155550103"),
    ]);
    try {
      const entries = await t.client.campaigns.audiences("c1");
      expect(entries.map((e) => e.phone)).toEqual(["+14155550101", "+14155550102", "+14155550103"]);
      const report = await t.client.campaigns.audiencesReport("c1");
      expect(report).toMatchObject({
        dropped: 0,
        odd: [
          { field: "call_sentiment", count: 1 },
          { field: "is_call_transferred", count: 1 },
        ],
      });
      expect(report.entries).toEqual(entries);
      expect(t.logs.text()).toContain("audience entries that don't fit were read in part or left out");
      // vcw api's generic path reads it the same way.
      await expect(t.client.request("campaigns.audiences", { id: "c1" })).resolves.toEqual(entries);
    } finally {
      await t.close();
    }
  });

  it("an audience that is not an array is still an UnexpectedResponseError", async () => {
    const t = await clientAnswering({ entries: [] });
    try {
      await expect(t.client.campaigns.audiences("c1")).rejects.toBeInstanceOf(UnexpectedResponseError);
    } finally {
      await t.close();
    }
  });
});
