import { randomBytes } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { createClient } from "../../../src/api/index.ts";
import { redisKeys } from "../../../src/lib/redis-keys.ts";
import { resolveSegment } from "../../../src/pipeline/contacts/resolve-segment.ts";
import { createCreateMemo } from "../../../src/pipeline/stores/create-memo.ts";
import { NO_FAULTS } from "../../../src/simulator/faults.ts";
import { API_KEY } from "../../support/fixtures.ts";
import { sendJson, startHttpServer } from "../../support/http-server.ts";
import { useRedis } from "../../support/redis.ts";
import { useSimulator } from "../../support/simulator.ts";

describe("resolveSegment", () => {
  const t = useSimulator();
  const { redis, prefix } = useRedis();
  let p: string;
  let name: string;
  beforeEach(() => {
    t.sim.setFaults(NO_FAULTS);
    p = prefix();
    name = `Leads ${randomBytes(3).toString("hex")}`;
  });
  const named = async () => (await t.client.segments.list()).filter((s) => s.name === name);

  it("creates a missing segment once, then finds it", async () => {
    const first = await resolveSegment(t.client, createCreateMemo(redis, redisKeys(p)), { name });
    expect(first.created).toBe(true);
    expect(await resolveSegment(t.client, createCreateMemo(redis, redisKeys(p)), { name })).toEqual({
      id: first.id,
      created: false,
    });
    // A new worker without the memo finds it by name.
    expect(await resolveSegment(t.client, createCreateMemo(redis, redisKeys(prefix())), { name })).toEqual({
      id: first.id,
      created: false,
    });
    expect(await named()).toHaveLength(1);
  });

  it("five workers at once create one segment", async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        resolveSegment(t.client, createCreateMemo(redis, redisKeys(p)), { name }),
      ),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await named()).toHaveLength(1);
  });

  it("an ambiguous create (applied, answer lost) is found by name, not created twice", async () => {
    // Commit-then-fail hits writes only: the create is applied and its connection dropped; lists work.
    t.sim.setFaults({ commitThenFailRate: 1, commitThenFailMode: "drop" });
    t.sim.stats.reset();
    const result = await resolveSegment(t.client, createCreateMemo(redis, redisKeys(p)), { name });
    expect(t.sim.stats.committedThenFailed).toBe(1);
    expect(result.created).toBe(true);
    expect(await named()).toEqual([expect.objectContaining({ id: result.id })]);
  });

  it("a service that returns no ids: a clear error asking for the id", async () => {
    const server = await startHttpServer((req, res) =>
      sendJson(res, 200, req.method === "GET" ? [{ name }] : { name }),
    );
    try {
      const client = createClient({ baseUrl: server.url, apiKey: API_KEY });
      await expect(resolveSegment(client, createCreateMemo(redis, redisKeys(p)), { name })).rejects.toThrow(
        /lists segment "Leads [0-9a-f]+" without an id: give the segment's id in the job/,
      );
    } finally {
      await server.close();
    }
  });

  it("a given id is used as is", async () => {
    expect(
      await resolveSegment(t.client, createCreateMemo(redis, redisKeys(prefix())), { id: "seg_given" }),
    ).toEqual({
      id: "seg_given",
      created: false,
    });
  });
});
