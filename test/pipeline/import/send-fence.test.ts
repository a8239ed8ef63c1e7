import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { beforeEach, describe, expect, it } from "vitest";
import type { RequestGate } from "../../../src/api/gate.ts";
import { redisKeys } from "../../../src/lib/redis-keys.ts";
import { type ContactToImport, importContacts } from "../../../src/pipeline/contacts/import-contacts.ts";
import { createContactLedger } from "../../../src/pipeline/stores/contact-ledger.ts";
import { startSimulator } from "../../../src/simulator/server.ts";
import { API_KEY } from "../../support/fixtures.ts";
import { useRedis } from "../../support/redis.ts";
import { testClient, useSimulator } from "../../support/simulator.ts";

const contact = (i: number): ContactToImport => {
  const phone = `+1415666${String(i).padStart(4, "0")}`;
  return { phone, index: i, contact: { phone, first_name: `C${i}` } };
};

async function* rowsOf(list: ContactToImport[]) {
  yield* list;
}

/** A rate gate that holds every request until `open()`. */
function heldGate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  const gate: RequestGate = { acquire: () => opened, observe: () => undefined };
  return { gate, open };
}

/** Ownership is checked at the moment a create leaves, not when it was claimed (issue 28). */
describe("the send fence: a create leaves only while its claim is held", () => {
  const t = useSimulator();
  const { redis, prefix } = useRedis();
  let segmentId: string;
  let keys: ReturnType<typeof redisKeys>;
  beforeEach(async () => {
    keys = redisKeys(prefix());
    segmentId = (await t.client.segments.create({ name: `fence-${randomBytes(3).toString("hex")}` })).id!;
  });
  const ledgerOf = (leaseMs: number) => createContactLedger(redis, { keys, leaseMs, settleMs: 200 });
  const onService = async () => (await t.client.contacts.list(segmentId)).map((c) => c.phone);

  it("a claim taken over while its create waits in the gate: the create is not sent, the new owner's result counts", async () => {
    const ledger = ledgerOf(60_000);
    await ledger.seed(segmentId, []); // the gate holds the creates only, not a first listing
    const held = heldGate();
    const row = contact(1);
    const importing = importContacts(rowsOf([row]), {
      client: testClient(t.sim, { gate: held.gate }),
      ledger,
      segmentId,
      owner: "waiting-attempt",
      waitPollMs: 20,
    });
    await sleep(100);
    // Another attempt took it over (a stall past the lease) and created it.
    await redis.hset(keys.ledger(segmentId), row.phone, `p|other|${Date.now()}|`);
    await t.client.contacts.create(segmentId, row.contact);
    await ledger.markDone(segmentId, [row.phone], "other");
    held.open();
    expect(await importing).toMatchObject({ created: 0, elsewhere: 1 });
    expect(await onService()).toEqual([row.phone]);
  });

  it("held between the check and the write to its socket (a pause) while the claim is taken over: nothing is written", async () => {
    const ledger = ledgerOf(60_000);
    await ledger.seed(segmentId, []);
    const row = contact(4);
    let writes = 0;
    // The first request stalls after its check, before undici writes it (as a paused process would).
    const slowFirst: typeof fetch = async (input, init) => {
      if (writes++ === 0) await sleep(1_300);
      return fetch(input, init);
    };
    const importing = importContacts(rowsOf([row]), {
      client: testClient(t.sim, { fetch: slowFirst }),
      ledger,
      segmentId,
      owner: "stalled-attempt",
      waitPollMs: 20,
    });
    await sleep(300);
    await redis.hset(keys.ledger(segmentId), row.phone, `p|other|${Date.now()}|`);
    await sleep(1_500);
    expect(await onService()).toEqual([]);
    await ledger.markDone(segmentId, [row.phone], "other");
    expect(await importing).toMatchObject({ created: 0, elsewhere: 1 });
    expect(await onService()).toEqual([]);
  });

  it("a claim waiting in the gate longer than its lease is kept alive: nobody else may take it", async () => {
    // A 1 s lease (kept alive every 333 ms): a stall past 200 ms lapsed a 300 ms one; three leases still lapse it unkept.
    const ledger = ledgerOf(1_000);
    await ledger.seed(segmentId, []);
    const held = heldGate();
    const row = contact(2);
    const importing = importContacts(rowsOf([row]), {
      client: testClient(t.sim, { gate: held.gate }),
      ledger,
      segmentId,
      owner: "slow-attempt",
    });
    await sleep(3_000);
    expect(await ledger.claim(segmentId, row.phone, "other")).toBe("busy");
    held.open();
    expect(await importing).toMatchObject({ created: 1 });
    expect(await onService()).toEqual([row.phone]);
  });

  it("an unknown outcome is sent again only after a listing begun the settle time after its send", async () => {
    const ledger = ledgerOf(60_000);
    const row = contact(3);
    await ledger.seed(segmentId, []);
    expect(await ledger.claim(segmentId, row.phone, "a")).toBe("claimed");
    expect(await ledger.fence(segmentId, row.phone, "a")).toBe("owned");
    const sentAt = await ledger.now();
    expect(await ledger.takeOver(segmentId, row.phone, "a", sentAt + 100)).toBe("unsettled");
    expect(await ledger.settleWait(segmentId, [row.phone])).toBeGreaterThan(0);
    expect(await ledger.takeOver(segmentId, row.phone, "a", sentAt + 200)).toBe("sent");
    // Taken over: the former owner's fence refuses.
    expect(await ledger.fence(segmentId, row.phone, "b")).toBe("lost");
  });
});

describe("idempotency keys: a service that honours them makes one record per key", () => {
  const { redis, prefix } = useRedis();
  it("with --idempotency-keys a create sent again with its key applies nothing; vcw needs no settle wait", async () => {
    const sim = await startSimulator({ apiKey: API_KEY, idempotencyKeys: true });
    try {
      const client = testClient(sim, { idempotencyKeys: true });
      const segmentId = (await client.segments.create({ name: "keys" })).id!;
      const body = { phone: "+14156660100", first_name: "A" };
      await client.contacts.create(segmentId, body, { idempotencyKey: "k-1" });
      await client.contacts.create(segmentId, body, { idempotencyKey: "k-1" });
      expect(sim.store.contactsOf(segmentId)).toHaveLength(1);
      // Every write applied, then its answer lost: re-sent at once with the same key, never twice.
      sim.setFaults({ commitThenFailRate: 0.5, commitThenFailMode: "mixed" });
      const ledger = createContactLedger(redis, { keys: redisKeys(prefix()), leaseMs: 60_000, settleMs: 0 });
      const list = Array.from({ length: 60 }, (_, i) => contact(200 + i));
      const counts = await importContacts(rowsOf(list), { client, ledger, segmentId, owner: "keyed" });
      sim.setFaults({ commitThenFailRate: 0 });
      expect(counts.reconciles).toBeGreaterThan(0);
      expect(sim.store.contactsOf(segmentId)).toHaveLength(61);
      expect(new Set(sim.store.contactsOf(segmentId).map((c) => c.fields.phone)).size).toBe(61);
    } finally {
      await sim.close();
    }
  });
});
