import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { beforeEach, describe, expect, it } from "vitest";
import { redisKeys } from "../../../src/lib/redis-keys.ts";
import { type ContactToImport, importContacts } from "../../../src/pipeline/contacts/import-contacts.ts";
import { createContactLedger } from "../../../src/pipeline/stores/contact-ledger.ts";
import { NO_FAULTS } from "../../../src/simulator/faults.ts";
import { useRedis } from "../../support/redis.ts";
import { useSimulator } from "../../support/simulator.ts";

const contacts = (n: number, from = 0): ContactToImport[] =>
  Array.from({ length: n }, (_, i) => {
    const phone = `+1415555${String(from + i).padStart(4, "0")}`;
    return { phone, index: i, contact: { phone, first_name: `C${from + i}` } };
  });

async function* rowsOf(list: ContactToImport[]) {
  yield* list;
}

describe("importContacts: exactly once, on real Redis against the simulator", () => {
  const t = useSimulator();
  const { redis, prefix } = useRedis();
  let ledger: ReturnType<typeof createContactLedger>;
  let ledgerPrefix: string;
  let segmentId: string;
  const owner = () => `attempt-${randomBytes(3).toString("hex")}`;

  beforeEach(async () => {
    t.sim.setFaults(NO_FAULTS);
    ledgerPrefix = prefix();
    ledger = createContactLedger(redis, { keys: redisKeys(ledgerPrefix), leaseMs: 60_000, settleMs: 200 });
    segmentId = (await t.client.segments.create({ name: `import-${randomBytes(3).toString("hex")}` })).id!;
  });

  /** The service lists exactly `n` contacts in the segment, none of them twice. */
  async function expectEachOnce(n: number) {
    t.sim.setFaults(NO_FAULTS);
    const phones = (await t.client.contacts.list(segmentId)).map((c) => c.phone!);
    expect(phones).toHaveLength(n);
    expect(new Set(phones).size).toBe(n);
  }

  const run = (list: ContactToImport[], extra: Partial<Parameters<typeof importContacts>[1]> = {}) =>
    importContacts(rowsOf(list), {
      client: t.client,
      ledger,
      segmentId,
      owner: owner(),
      concurrency: 8,
      ...extra,
    });

  it("a clean import creates each contact once; running it again creates nothing", async () => {
    const list = contacts(60);
    expect(await run(list)).toMatchObject({ created: 60, known: 0, failed: [], reconciles: 0 });
    expect(await run(list)).toMatchObject({ created: 0, known: 60 });
    await expectEachOnce(60);
  });

  it("5xx, 429 and commit-then-fail (500 and dropped connections): every contact exactly once", async () => {
    const list = contacts(200);
    t.sim.setFaults({
      errorRate: 0.15,
      commitThenFailRate: 0.2,
      commitThenFailMode: "mixed",
      rateLimit: 400,
    });
    const counts = await run(list, { reconcileBatch: 20 });
    expect(counts.created).toBe(200);
    expect(counts.reconciles).toBeGreaterThan(0);
    expect(t.sim.stats.committedThenFailed).toBeGreaterThan(0);
    await expectEachOnce(200);
  });

  it("an attempt stopped half way is finished by the next one, with nothing twice", async () => {
    const list = contacts(120);
    t.sim.setFaults({ latencyMs: 5, commitThenFailRate: 0.1 });
    const abort = new AbortController();
    const first = run(list, {
      signal: abort.signal,
      onProgress: (c) => {
        if (c.created >= 40) abort.abort();
      },
    });
    await expect(first).rejects.toThrow();
    // The next attempt (a restart) finds claims of the stopped one; with a short lease it reconciles them.
    const stats = await ledger.stats(segmentId);
    expect(stats.done).toBeGreaterThanOrEqual(40);
    // Claims older than the lease are reconciled; the lease lets requests still in flight land first.
    ledger = createContactLedger(redis, { keys: redisKeys(ledgerPrefix), leaseMs: 100, settleMs: 200 });
    await sleep(200);
    const second = await run(list);
    expect(second.known + second.created).toBe(120);
    await expectEachOnce(120);
  });

  it("two attempts at once on the same rows: each contact once", async () => {
    const list = contacts(150);
    t.sim.setFaults({ latencyMs: 2, commitThenFailRate: 0.1 });
    const [a, b] = await Promise.all([run(list), run(list)]);
    expect(a.created + b.created).toBe(150);
    await expectEachOnce(150);
  });

  it("a missing segment (404) stops the import with the service's message; claims are released", async () => {
    const attempt = importContacts(rowsOf(contacts(3)), {
      client: t.client,
      ledger,
      segmentId: "seg_missing",
      owner: owner(),
    });
    await expect(attempt).rejects.toThrow(/HTTP 404: id: no segment with id seg_missing/);
    expect(await ledger.stats("seg_missing")).toEqual({ done: 0, claimed: 0 });
  });

  it("after a crash, claims of the dead attempt are reconciled once the lease is over", async () => {
    const list = contacts(30);
    // A dead attempt claimed the first 10 and sent half of them before dying.
    ledger = createContactLedger(redis, { keys: redisKeys(ledgerPrefix), leaseMs: 300, settleMs: 200 });
    await ledger.seed(segmentId, []); // the ledger knew the (empty) segment before the crash
    for (const row of list.slice(0, 10)) await ledger.claim(segmentId, row.phone, "dead");
    for (const row of list.slice(0, 5)) await t.client.contacts.create(segmentId, row.contact);
    const started = Date.now();
    const counts = await run(list, { waitPollMs: 50 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(counts.created).toBe(30);
    await expectEachOnce(30);
  });

  it("a ledger that lost its memory (Redis restarted empty) learns the segment before sending: no duplicate", async () => {
    const list = contacts(40);
    // 25 were created by an import whose ledger is gone: no claim, no done mark, no seed.
    for (const row of list.slice(0, 25)) await t.client.contacts.create(segmentId, row.contact);
    const counts = await run(list);
    expect(counts).toMatchObject({ created: 15, known: 25 });
    await expectEachOnce(40);
  });

  it("the service spells listed phones its own way: the ledger learns and reconciles them as E.164, no duplicate", async () => {
    const list = contacts(40, 100);
    for (const row of list.slice(0, 25)) await t.client.contacts.create(segmentId, row.contact);
    t.sim.setPhoneSpelling("mixed"); // 14155550100, (415) 555-0101, +1 415 555 0102, ...
    try {
      t.sim.setFaults({ commitThenFailRate: 0.3, commitThenFailMode: "mixed" });
      const counts = await run(list, { country: "US", reconcileBatch: 5 });
      expect(counts).toMatchObject({ created: 15, known: 25 });
      expect(counts.reconciles).toBeGreaterThan(0);
      await expectEachOnce(40);
    } finally {
      t.sim.setPhoneSpelling("as-given");
    }
  });
});
