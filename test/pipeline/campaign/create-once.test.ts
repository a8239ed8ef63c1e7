import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { redisKeys } from "../../../src/lib/redis-keys.ts";
import { createCampaignOnce } from "../../../src/pipeline/campaign/create-campaign.ts";
import { resolveSegment } from "../../../src/pipeline/contacts/resolve-segment.ts";
import { CreateCanceledError, CreateUnresolvedError } from "../../../src/pipeline/errors.ts";
import { createCreateMemo } from "../../../src/pipeline/stores/create-memo.ts";
import { NO_FAULTS } from "../../../src/simulator/faults.ts";
import { validAssistant, validDialer } from "../../support/fixtures.ts";
import { startProxy } from "../../support/proxy.ts";
import { useRedis } from "../../support/redis.ts";
import { testClient, useSimulator } from "../../support/simulator.ts";

describe("createOnce: the service's history is read only when a create may have been applied", () => {
  const t = useSimulator();
  const { redis, prefix } = useRedis();
  let ids: { assistant: string; dialer: string; segment: string };
  let p: string;

  beforeAll(async () => {
    ids = {
      assistant: (await t.client.assistants.create(validAssistant())).id!,
      dialer: (await t.client.dialers.create(validDialer())).id!,
      segment: (await t.client.segments.create({ name: "create-once" })).id!,
    };
  });
  beforeEach(() => {
    t.sim.setFaults(NO_FAULTS);
    p = prefix();
  });

  const body = (name: string) => ({
    campaigns_name: name,
    assistant_id: ids.assistant,
    contacts_id: ids.segment,
    dialer_id: ids.dialer,
    scheduled_at: new Date().toISOString(),
  });
  const fresh = (what: string) => `${what}-${randomBytes(3).toString("hex")}`;
  const named = async (name: string) =>
    (await t.client.campaigns.list()).filter((c) => c.campaigns_name === name);

  it("a segment costs a listing and its create (its memo may be lost with Redis), a campaign not asked to look first one request", async () => {
    t.sim.stats.reset();
    const segment = await resolveSegment(t.client, createCreateMemo(redis, redisKeys(p)), {
      name: fresh("seg"),
    });
    const campaign = await createCampaignOnce(
      t.client,
      createCreateMemo(redis, redisKeys(p)).campaign("k1"),
      body(fresh("cmp")),
    );
    expect([segment.created, campaign.created]).toEqual([true, true]);
    expect(
      Object.fromEntries([...t.sim.stats.byOperation].map(([op, s]) => [op, [...s.values()][0]])),
    ).toEqual({
      "segments.list": 1,
      "segments.create": 1,
      "campaigns.create": 1,
    });
    expect(t.sim.stats.total).toBe(3);
  });

  it("an ambiguous create whose lookup fails is never forgotten: it is found once the service lists again", async () => {
    const name = fresh("lost");
    const keys = redisKeys(p);
    // The create is applied and its answer lost (500); the listing fails while the service is "down".
    let down = true;
    const proxy = await startProxy(t.sim.url, (req) =>
      req.url!.endsWith("/campaign/create")
        ? { pass: true, thenAnswer: 500 }
        : req.url!.endsWith("/campaign/list") && down
          ? { answer: 503 }
          : undefined,
    );
    const client = testClient({ url: proxy.url });
    try {
      const first = await createCampaignOnce(
        client,
        createCreateMemo(redis, keys).campaign("k2"),
        body(name),
      ).catch((e: unknown) => e);
      expect(first).toBeInstanceOf(CreateUnresolvedError);
      expect(await createCreateMemo(redis, keys).campaign("k2").state()).toEqual({ kind: "may-exist" });
      // Still down: still unresolved, and nothing is sent again.
      const again = await createCampaignOnce(
        client,
        createCreateMemo(redis, keys).campaign("k2"),
        body(name),
      ).catch((e: unknown) => e);
      expect(again).toBeInstanceOf(CreateUnresolvedError);
      expect(proxy.requests.filter((r) => r.url.endsWith("/campaign/create"))).toHaveLength(1);
      down = false;
      const found = await createCampaignOnce(
        client,
        createCreateMemo(redis, keys).campaign("k2"),
        body(name),
        {
          mayCreate: async () => false, // canceled meanwhile: it exists all the same, so it is tracked
        },
      );
      expect(found.created).toBe(false);
      expect(await named(name)).toEqual([expect.objectContaining({ id: found.id })]);
      expect(await createCreateMemo(redis, keys).campaign("k2").state()).toEqual({
        kind: "exists",
        id: found.id,
      });
    } finally {
      await proxy.close();
    }
  });
  it("an ambiguous create that was not applied is sent again only once it can no longer land", async () => {
    const name = fresh("unapplied");
    const keys = redisKeys(p);
    // The first create is answered 502 without being passed on; everything else goes through.
    let creates = 0;
    const proxy = await startProxy(t.sim.url, (req) =>
      req.method === "POST" && req.url!.endsWith("/campaign/create") && creates++ === 0
        ? { answer: 502 }
        : undefined,
    );
    try {
      const client = testClient({ url: proxy.url });
      const o = { lockMs: 400, settleMs: 400 };
      expect(
        await createCampaignOnce(client, createCreateMemo(redis, keys).campaign("k3"), body(name), o).catch(
          (e: unknown) => e,
        ),
      ).toBeInstanceOf(CreateUnresolvedError);
      expect(await named(name)).toHaveLength(0);
      await new Promise((r) => setTimeout(r, 450));
      const made = await createCampaignOnce(
        client,
        createCreateMemo(redis, keys).campaign("k3"),
        body(name),
        o,
      );
      expect(made.created).toBe(true);
      expect(await named(name)).toEqual([expect.objectContaining({ id: made.id })]);
      expect(creates).toBe(2);
    } finally {
      await proxy.close();
    }
  });

  it("canceled before any create was sent: nothing is sent", async () => {
    const name = fresh("canceled");
    t.sim.stats.reset();
    const result = await createCampaignOnce(
      t.client,
      createCreateMemo(redis, redisKeys(p)).campaign("k4"),
      body(name),
      {
        mayCreate: async () => false,
      },
    ).catch((e: unknown) => e);
    expect(result).toBeInstanceOf(CreateCanceledError);
    expect(t.sim.stats.total).toBe(0);
    expect(await createCreateMemo(redis, redisKeys(p)).campaign("k4").state()).toEqual({ kind: "none" });
  });

  it("a worker killed between the create and remembering its id: the next attempt finds it, none twice", async () => {
    const name = fresh("killed");
    const keys = redisKeys(p);
    // The service takes 1.5 s to apply the create: the worker dies while it is in flight.
    t.sim.setFaults({ latencyMs: 1_500 });
    const proxy = await startProxy(t.sim.url, () => undefined);
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        fileURLToPath(new URL("../../support/create-campaign-child.ts", import.meta.url)),
        inject("redisUrl"),
        p,
        proxy.url,
        "k5",
        "3000",
        JSON.stringify(body(name)),
      ],
      { stdio: "ignore" },
    );
    const exited = new Promise((r) => child.once("exit", r));
    try {
      const deadline = Date.now() + 30_000;
      while (!proxy.requests.some((r) => r.url.endsWith("/campaign/create"))) {
        if (Date.now() > deadline) throw new Error("the child never sent its create");
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      child.kill("SIGKILL");
    }
    await exited;
    expect(await createCreateMemo(redis, keys).campaign("k5").state()).toEqual({ kind: "may-exist" });
    t.sim.setFaults(NO_FAULTS);
    // The dead worker's lock frees itself; by then its create has landed, and is found by name.
    const next = await createCampaignOnce(
      t.client,
      createCreateMemo(redis, keys).campaign("k5"),
      body(name),
      { lockMs: 3_000 },
    );
    expect(next.created).toBe(false);
    expect(await named(name)).toEqual([expect.objectContaining({ id: next.id })]);
    await proxy.close();
  }, 60_000);
});
