import { appendFileSync, copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { journalLine, parseJournal } from "../../src/simulator/journal.ts";
import { startSimulator } from "../../src/simulator/server.ts";
import { journalPathOf, loadState, openDurableState } from "../../src/simulator/state-file.ts";
import { type Change, Store } from "../../src/simulator/store.ts";
import { API_KEY, validAssistant, validDialer } from "../support/fixtures.ts";
import { testClient } from "../support/simulator.ts";

const tempState = () => join(mkdtempSync(join(tmpdir(), "vcw-sim-state-")), "state.json");

const segmentAdd = (seq: number, n: number): Change => ({
  seq,
  op: "add",
  collection: "segments",
  record: { id: `seg_x-${n}`, fields: { name: `s${n}` } },
  counter: n,
});

describe("simulator journal", () => {
  it("reads one change a line and leaves out a last line cut short by a crash", () => {
    const text = journalLine(segmentAdd(1, 1)) + journalLine(segmentAdd(2, 2));
    expect(parseJournal(text)).toEqual({ changes: [segmentAdd(1, 1), segmentAdd(2, 2)], torn: false });
    expect(parseJournal(text + journalLine(segmentAdd(3, 3)).slice(0, 20))).toEqual({
      changes: [segmentAdd(1, 1), segmentAdd(2, 2)],
      torn: true,
    });
    expect(parseJournal("")).toEqual({ changes: [], torn: false });
  });

  it("refuses an unreadable line that is not the last", () => {
    expect(() =>
      parseJournal(`${journalLine(segmentAdd(1, 1))}{"seq":\n${journalLine(segmentAdd(2, 2))}`),
    ).toThrow("Cannot read line 2 of the journal: not a change");
  });

  it("replay skips the changes a snapshot holds and refuses a gap", () => {
    const store = new Store();
    store.add("segments", { id: "seg_x-1", fields: { name: "s1" } });
    expect(store.seq).toBe(1);
    const noAudience = () => [];
    // A crash between a snapshot and the journal's truncation leaves changes the snapshot holds.
    expect(store.replay(segmentAdd(1, 1), noAudience)).toBe(false);
    expect(store.replay(segmentAdd(2, 2), noAudience)).toBe(true);
    expect(store.list("segments").map((s) => s.id)).toEqual(["seg_x-1", "seg_x-2"]);
    expect(store.data.counter).toBe(2);
    expect(() => store.replay(segmentAdd(4, 4), noAudience)).toThrow("change 4 follows change 2");
  });
});

describe("simulator state file", () => {
  it("a copy taken while running (a crash) has every answered change, the started campaign's calls alike", async () => {
    const stateFile = tempState();
    const sim = await startSimulator({ apiKey: API_KEY, stateFile, seed: 3 });
    const crashed = tempState();
    try {
      const client = testClient(sim);
      const segment = await client.segments.create({ name: "before" });
      await client.segments.update(segment.id!, { name: "after" });
      for (const phone of ["+14155550101", "+14155550102", "+14155550103"])
        await client.contacts.create(segment.id!, { phone, first_name: "Kim" });
      const [first] = await client.contacts.list(segment.id!);
      await client.contacts.update(first!.id!, { first_name: "Ana" });
      const [, second] = await client.contacts.list(segment.id!);
      await client.contacts.delete(second!.id!);
      const assistant = await client.assistants.create(validAssistant());
      const dialer = await client.dialers.create(validDialer());
      const campaign = await client.campaigns.create({
        campaigns_name: "c",
        assistant_id: assistant.id!,
        contacts_id: segment.id!,
        dialer_id: dialer.id!,
      });
      sim.clock.advance(3600_000);
      const audience = await client.campaigns.audiences(campaign.id!);
      expect(audience).toHaveLength(2);

      // Copied with no clean stop: only the snapshot written at start and the journal since.
      copyFileSync(stateFile, crashed);
      copyFileSync(journalPathOf(stateFile), journalPathOf(crashed));
      expect(loadState(crashed)!.changes.length).toBeGreaterThan(10);
      appendFileSync(journalPathOf(crashed), '{"seq":99,"op":"add","colle');
      const again = await startSimulator({ apiKey: API_KEY, stateFile: crashed, seed: 3 });
      try {
        const c2 = testClient(again);
        expect(await c2.segments.list()).toEqual([
          expect.objectContaining({ id: segment.id, name: "after" }),
        ]);
        expect(await c2.contacts.list(segment.id!)).toEqual(await client.contacts.list(segment.id!));
        expect((await c2.campaigns.list()).map((c) => c.id)).toEqual([campaign.id]);
        again.clock.advance(3600_000); // every call over, on both

        expect(await c2.campaigns.audiences(campaign.id!)).toEqual(audience);
        expect(readFileSync(journalPathOf(crashed), "utf8")).toBe(""); // folded into the snapshot at start
      } finally {
        await again.close();
      }
    } finally {
      await sim.close();
    }
  });

  it("folds the journal into the snapshot once it outgrows it, and at close", async () => {
    const stateFile = tempState();
    const store = new Store();
    const state = await openDurableState(stateFile, store, { compactBytes: 1 });
    for (let i = 0; i < 50; i++) {
      store.add("segments", { id: store.newId("segments"), fields: { name: `s${i}` } });
      await state.persisted();
    }
    const running = loadState(stateFile)!;
    expect(running.data!.changes).toBeGreaterThan(0); // at least one compaction
    const replayed = new Store(running.data);
    for (const change of running.changes) replayed.replay(change, () => []);
    expect(replayed.list("segments")).toEqual(store.list("segments"));

    await state.close();
    const closed = loadState(stateFile)!;
    expect(closed.changes).toEqual([]);
    expect(closed.data).toEqual(store.data);
  });
});
