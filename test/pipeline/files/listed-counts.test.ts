import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readFileRows } from "../../../src/pipeline/calling/gather-facts.ts";
import type { ImportSummary } from "../../../src/pipeline/files/import-outcome.ts";
import { countFromListing } from "../../../src/pipeline/files/listed-counts.ts";
import { createContactLedger } from "../../../src/pipeline/stores/contact-ledger.ts";
import { contactsCsv, phoneOf } from "../../support/daemon.ts";
import { tempDir } from "../../support/files.ts";
import { jobJ } from "../../support/own-campaign.ts";
import { useRedis } from "../../support/redis.ts";
import { useSimulator } from "../../support/simulator.ts";

/** Issue 28 item 4: a file's summary counts what the service lists, not what the ledger meant. */
describe("a file's counts from one listing of its segment", () => {
  const t = useSimulator();
  const { redis, keys: freshKeys } = useRedis();

  it("created and known are the file's phones listed; an extra copy is deleted; a create the service lost is not counted", async () => {
    const keys = freshKeys();
    const ledger = createContactLedger(redis, { keys, leaseMs: 30_000 });
    const segmentId = (await t.client.segments.create({ name: `listed-${keys.prefix}` })).id!;
    const [p0, p1, p2, other] = [0, 1, 2, 3].map((i) => phoneOf(98_000 + i));
    // p0: created by this file, and again by a create applied late; p1: there before; p2: the ledger
    // says created, the service never applied it; `other`: another file's, twice, left alone.
    for (const phone of [p0!, p0!, p1!, other!, other!]) await t.client.contacts.create(segmentId, { phone });
    await ledger.markDone(segmentId, [p0!, p2!], "j:sha:0");
    await ledger.markDone(segmentId, [p1!]);
    const path = join(tempDir("vcw-listed-"), "f.csv");
    writeFileSync(path, contactsCsv(3, { from: 98_000 }));
    const summary = {
      status: "imported",
      segment: { id: segmentId },
      created: 2,
      known: 1,
      elsewhere: 0,
    } as ImportSummary;

    await countFromListing(
      jobJ(),
      summary,
      { creator: "j:sha:0", rows: () => readFileRows(jobJ(), path) },
      { client: t.client, ledger },
    );
    expect(summary).toMatchObject({ created: 1, known: 1, elsewhere: 0 });
    expect(summary.listed).toEqual({
      contacts: 4,
      phones: 3,
      duplicatesRemoved: 1,
      notListed: 1,
      ledger: { created: 2, known: 1, elsewhere: 0 },
    });
    const phones = (await t.client.contacts.list(segmentId)).map((c) => c.phone).sort();
    expect(phones).toEqual([p0, p1, other, other].sort());

    // Again (settling retried): the same counts, the ledger's figures kept as they first were.
    await countFromListing(
      jobJ(),
      summary,
      { creator: "j:sha:0", rows: () => readFileRows(jobJ(), path) },
      { client: t.client, ledger },
    );
    expect(summary).toMatchObject({ created: 1, known: 1 });
    expect(summary.listed).toMatchObject({
      contacts: 4,
      duplicatesRemoved: 1,
      ledger: { created: 2, known: 1 },
    });
  });
});
