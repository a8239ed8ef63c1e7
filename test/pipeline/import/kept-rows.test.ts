import { randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ingestOptionsOf } from "../../../src/config/ingest-options.ts";
import { JobDefinition } from "../../../src/config/job-definition.ts";
import { redisKeys } from "../../../src/lib/redis-keys.ts";
import { gatherFacts, readFileRows } from "../../../src/pipeline/calling/gather-facts.ts";
import { keptRows } from "../../../src/pipeline/campaign/kept-rows.ts";
import { importFile } from "../../../src/pipeline/import/import-file.ts";
import { createContactLedger } from "../../../src/pipeline/stores/contact-ledger.ts";
import { createFileRowsStore } from "../../../src/pipeline/stores/file-rows.ts";
import { contactsCsv } from "../../support/daemon.ts";
import { tempDir } from "../../support/files.ts";
import { useRedis } from "../../support/redis.ts";
import { useSimulator } from "../../support/simulator.ts";

const job = (calling: boolean) =>
  JobDefinition.parse({
    name: "kept",
    inbox: "/nowhere",
    segment: { name: "kept" },
    contacts: { country: "US" },
    campaign: { assistant: { id: "a1" }, dialer: { id: "d1" } },
    ...(calling ? { calling: { rules: ["us"] } } : {}),
  });

/** A file's rows, read once at import: its plan and campaigns read them from Redis, not the file. */
describe("a file's rows kept by its import", () => {
  const t = useSimulator();
  const { redis, prefix } = useRedis();

  async function imported(csv: string, def = job(false)) {
    const keys = redisKeys(prefix());
    const dir = tempDir("vcw-kept-");
    const path = join(dir, "f.csv");
    writeFileSync(path, csv);
    const ledger = createContactLedger(redis, { keys, leaseMs: 60_000, settleMs: 200 });
    const segmentId = (await t.client.segments.create({ name: `kept-${randomBytes(3).toString("hex")}` }))
      .id!;
    const store = createFileRowsStore(redis, keys);
    const creator = `kept:${randomBytes(4).toString("hex")}:1`;
    const run = () =>
      importFile(path, {
        client: t.client,
        ledger,
        segmentId,
        owner: `o-${randomBytes(3).toString("hex")}`,
        ingest: ingestOptionsOf(def),
        errorsPath: `${path}.errors.csv`,
        creator,
        rows: {
          ...(def.calling ? { location: def.calling.location ?? {} } : {}),
          open: (headers) => store.writer(creator, headers),
        },
      });
    await run();
    return { keys, path, store, creator, run };
  }

  it("holds the valid rows the file read gives, each phone once, with their lines; the file is not read again", async () => {
    const csv = `${contactsCsv(30, { from: 100 })}not a phone,Nobody\n`;
    const { path, store, creator } = await imported(csv);
    const fromFile = await readFileRows(job(false), path);
    expect(fromFile.rows).toHaveLength(30);
    expect(await store.read(creator)).toEqual({ headers: fromFile.headers, rows: fromFile.rows });
    rmSync(path);
    // Planning and the campaigns' segments take them from Redis: the file is gone.
    expect((await keptRows(job(false), { creator, path: async () => path }, store)()).rows).toEqual(
      fromFile.rows,
    );
    await store.drop(creator);
    await expect(keptRows(job(false), { creator, path: async () => path }, store)()).rejects.toThrow();
  });

  it("under calling rules a row keeps its location cells, as the planner reads them", async () => {
    const csv = "Phone,First Name,State\n+12125550101,Ann,Florida\n+12125550102,Bo,\n";
    const { path, store, creator } = await imported(csv, job(true));
    const kept = await store.read(creator);
    expect(kept!.rows.map((r) => r.hints)).toEqual([{ region: "Florida" }, undefined]);
    expect(kept).toEqual({
      headers: ["Phone", "First Name", "State"],
      rows: (await readFileRows(job(true), path)).rows,
    });
  });

  it("an attempt that did not read the file whole leaves nothing to use; a retry writes the same rows", async () => {
    const { store, creator, run } = await imported(contactsCsv(1_500, { from: 2_000 }));
    const whole = await store.read(creator);
    expect(whole!.rows).toHaveLength(1_500);
    // An attempt begun and cut off (a crash after its first chunk): the earlier rows are gone, none used.
    const cut = await store.writer(creator, whole!.headers);
    for (const row of whole!.rows.slice(0, 1_200)) await cut.add(row);
    expect(await store.read(creator)).toBeUndefined();
    await run();
    expect(await store.read(creator)).toEqual(whole);
  });

  it("costs about a hundred bytes a row in Redis (measured), and expires", async () => {
    const { keys, store, creator } = await imported(contactsCsv(2_000, { from: 10_000 }));
    const bytes = Number(await redis.memory("USAGE", keys.fileRows(creator), "SAMPLES", 0));
    const perRow = bytes / 2_000;
    console.log(`kept rows: ${bytes} bytes for 2000 rows, ${perRow.toFixed(1)} bytes a row`);
    expect(perRow).toBeLessThan(200);
    expect(await redis.pttl(keys.fileRows(creator))).toBeGreaterThan(86_400_000);
    expect((await store.read(creator))!.rows).toHaveLength(2_000);
  });
});

describe("the planner's facts of a file", () => {
  it("give each planned phone its line in the file, for the error report's skips (they said line 0 before)", async () => {
    const path = join(tempDir("vcw-lines-"), "f.csv");
    writeFileSync(path, "Phone,First Name\n+12125550101,Ann\nnot a phone,Bo\n+12125550102,Cy\n");
    const none = {
      suppressed: async () => new Set<string>(),
      lastCalled: async () => new Map<string, number>(),
      callTimes: async () => new Map(),
    };
    const facts = await gatherFacts(job(true), path, none, Date.now());
    expect([...facts.lines]).toEqual([
      ["+12125550101", 2],
      ["+12125550102", 4],
    ]);
  });
});
