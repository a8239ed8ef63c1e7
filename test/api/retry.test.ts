import { beforeEach, describe, expect, it } from "vitest";
import {
  AmbiguousWriteError,
  APIConnectionError,
  APIConnectionTimeoutError,
  InternalServerError,
  RateLimitError,
} from "../../src/api/index.ts";
import { freePort } from "../../src/daemon/redis-server.ts";
import { NO_FAULTS } from "../../src/simulator/faults.ts";
import { API_KEY } from "../support/fixtures.ts";
import { testClient, useSimulator } from "../support/simulator.ts";

/** A fetch that counts the attempts the client makes. */
function countingFetch() {
  const counter = {
    calls: 0,
    fetch: (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      counter.calls += 1;
      return fetch(input, init);
    },
  };
  return counter;
}

async function segmentNames(t: ReturnType<typeof useSimulator>) {
  t.sim.setFaults(NO_FAULTS);
  return (await t.client.segments.list()).map((s) => s.name);
}

describe("retries, timeouts and ambiguous writes against the simulator's faults", () => {
  const t = useSimulator();
  beforeEach(() => {
    t.sim.setFaults(NO_FAULTS);
    t.sim.stats.reset();
  });

  it("a GET is retried on 5xx up to maxRetries, then fails with InternalServerError", async () => {
    t.sim.setFaults({ errorRate: 1 });
    const error = await t.client.segments.list({ maxRetries: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).not.toBeInstanceOf(AmbiguousWriteError);
    expect((error as InternalServerError).status).toBeGreaterThanOrEqual(500);
    expect(t.sim.stats.total).toBe(3);
  });

  it("a GET gets through intermittent 5xx", async () => {
    t.sim.setFaults({ errorRate: 0.5 });
    for (let i = 0; i < 10; i++) await t.client.segments.list({ maxRetries: 20 });
    const failures = t.sim.stats.count(500) + t.sim.stats.count(502) + t.sim.stats.count(503);
    expect(failures).toBeGreaterThan(0);
    expect(t.sim.stats.total).toBe(10 + failures);
  });

  it("a read that is a POST (contacts.list) is retried like a GET", async () => {
    const segment = await t.client.segments.create({ name: "reads" });
    t.sim.stats.reset();
    t.sim.setFaults({ errorRate: 1 });
    await expect(t.client.contacts.list(segment.id!, { maxRetries: 2 })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(t.sim.stats.total).toBe(3);
  });

  it("a create that gets a 5xx is not retried: AmbiguousWriteError", async () => {
    t.sim.setFaults({ errorRate: 1 });
    const error = await t.client.segments
      .create({ name: "maybe" }, { maxRetries: 5 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    expect((error as AmbiguousWriteError).cause).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).toMatch(/segments\.create failed with HTTP 5\d\d: outcome unknown/);
    expect(t.sim.stats.total).toBe(1);
  });

  it("commit-then-fail (500): the write was applied, the caller is told the outcome is unknown", async () => {
    t.sim.setFaults({ commitThenFailRate: 1, commitThenFailMode: "500" });
    const error = await t.client.segments.create({ name: "applied-500" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    expect(await segmentNames(t)).toContain("applied-500");
    expect(t.sim.stats.applied).toBe(1);
  });

  it("commit-then-fail (dropped connection): AmbiguousWriteError caused by a connection error", async () => {
    t.sim.setFaults({ commitThenFailRate: 1, commitThenFailMode: "drop" });
    const error = await t.client.segments.create({ name: "applied-drop" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    expect((error as AmbiguousWriteError).cause).toBeInstanceOf(APIConnectionError);
    expect(await segmentNames(t)).toContain("applied-drop");
  });

  it("an update (idempotent) is retried after commit-then-fail and is never ambiguous", async () => {
    const segment = await t.client.segments.create({ name: "to-update" });
    t.sim.stats.reset();
    t.sim.setFaults({ commitThenFailRate: 1, commitThenFailMode: "500" });
    const error = await t.client.segments
      .update(segment.id!, { name: "updated" }, { maxRetries: 2 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).not.toBeInstanceOf(AmbiguousWriteError);
    expect(t.sim.stats.applied).toBe(3);
    expect(await segmentNames(t)).toContain("updated");
  });

  it("a 429 is retried after its Retry-After, also for a create", async () => {
    t.sim.setFaults({ rateLimit: 1 });
    const started = Date.now();
    await t.client.segments.create({ name: "first" });
    await t.client.segments.create({ name: "second" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(t.sim.stats.count(429, "segments.create")).toBeGreaterThanOrEqual(1);
    const names = await segmentNames(t);
    expect(names.filter((n) => n === "second")).toHaveLength(1);
  });

  it("a Retry-After is honoured only up to the cap, then RateLimitError says how long to wait", async () => {
    t.sim.setFaults({ rateLimit: 1 });
    await t.client.segments.list();
    const started = Date.now();
    const error = await t.client.segments
      .list({ maxRetries: 1, retry: { retryAfterCapMs: 50 } })
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(700);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(1000);
  });

  it("requests over the in-flight cap are answered 429 and retried until they get through", async () => {
    t.sim.setFaults({ maxInflight: 1, latencyMs: 30 });
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.client.segments.list({ maxRetries: 50, retry: { retryAfterCapMs: 20 } }),
      ),
    );
    expect(results).toHaveLength(5);
    expect(t.sim.stats.count(429)).toBeGreaterThan(0);
    expect(t.sim.stats.peakInflight).toBe(1);
  });

  it("a timeout is retried for a read and ends in APIConnectionTimeoutError (its last attempt's timeout)", async () => {
    t.sim.setFaults({ latencyMs: 300 });
    const counter = countingFetch();
    const client = testClient(t.sim, { fetch: counter.fetch, timeoutMs: 50, maxRetries: 2 });
    const error = await client.segments.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toMatch(/segments\.list failed: timed out after 200 ms/);
    expect(counter.calls).toBe(3);
  });

  it("a timed-out create is not retried: AmbiguousWriteError caused by the timeout", async () => {
    t.sim.setFaults({ latencyMs: 300 });
    const counter = countingFetch();
    const client = testClient(t.sim, { fetch: counter.fetch, timeoutMs: 50, maxRetries: 2 });
    const error = await client.segments.create({ name: "slow" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousWriteError);
    expect((error as AmbiguousWriteError).cause).toBeInstanceOf(APIConnectionTimeoutError);
    expect(counter.calls).toBe(1);
  });

  it("a refused connection is retried even for a create, and is not ambiguous", async () => {
    const counter = countingFetch();
    const closed = await freePort();
    const client = testClient(t.sim, {
      baseUrl: `http://127.0.0.1:${closed}/api/v1`,
      fetch: counter.fetch,
      maxRetries: 2,
    });
    const error = await client.segments.create({ name: "nowhere" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(AmbiguousWriteError);
    expect((error as APIConnectionError).networkCode).toBe("ECONNREFUSED");
    expect(counter.calls).toBe(3);
  });

  it("per-request options override the client's", async () => {
    t.sim.setFaults({ errorRate: 1 });
    const client = testClient(t.sim, { maxRetries: 4 });
    await expect(client.segments.list({ maxRetries: 0 })).rejects.toBeInstanceOf(InternalServerError);
    expect(t.sim.stats.total).toBe(1);
  });

  it("the wrong API key is an AuthenticationError and is not retried", async () => {
    const client = testClient(t.sim, { apiKey: `${API_KEY}-wrong` });
    await expect(client.segments.list()).rejects.toMatchObject({ name: "AuthenticationError", status: 401 });
    expect(t.sim.stats.total).toBe(1);
  });
});
