import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { NO_FAULTS } from "../../src/simulator/faults.ts";
import {
  contactsCsv,
  drop,
  phoneOf,
  quietLogger,
  summaryOf,
  testSettings,
  waitFor,
  writeJob,
} from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { captureLogs } from "../support/log-capture.ts";
import { useSimulator } from "../support/simulator.ts";

describe("drop folder -> segment, on real Redis against the simulator", () => {
  const t = useSimulator();
  let home: string;
  let inbox: string;
  let daemon: Daemon | undefined;

  beforeEach(() => {
    t.sim.setFaults(NO_FAULTS);
    home = tempDir("vcw-daemon-");
    inbox = join(home, "inbox", "leads");
    writeJob(join(home, "jobs"), "leads", inbox, `leads-${home.slice(-6)}`);
  });
  afterEach(async () => {
    await daemon?.close();
    daemon = undefined;
  });

  const start = async (logger = quietLogger()) => {
    daemon = await startDaemon({
      settings: testSettings(home, t.sim.url),
      logger,
      watch: true,
      work: true,
    });
    await daemon.ready;
    return daemon;
  };

  /** The phones the service lists in the job's segment; each must be there once. */
  async function segmentPhones(): Promise<string[]> {
    t.sim.setFaults(NO_FAULTS);
    const segments = await t.client.segments.list();
    const seg = segments.find((s) => s.name === `leads-${home.slice(-6)}`);
    if (!seg?.id) return [];
    return (await t.client.contacts.list(seg.id)).map((c) => c.phone!);
  }

  async function expectExactly(from: number, n: number) {
    const phones = await segmentPhones();
    expect(phones).toHaveLength(n);
    expect(new Set(phones)).toEqual(new Set(Array.from({ length: n }, (_, i) => phoneOf(from + i))));
  }

  it("the stores' connection defines only vcw's scripts: BullMQ's sixty are on the queues' own", async () => {
    // ioredis copies every script defined on a client into each MULTI made on it: BullMQ's, defined
    // on the stores' client, cost each poll's commit that copy (3.4% of a daemon's CPU at 100,000 live campaigns).
    const d = await start();
    drop(inbox, "scripts.csv", contactsCsv(3));
    await waitFor(() => summaryOf(inbox, "scripts.csv"), 20_000, "scripts.csv in done/");
    const defined = (client: object) => Object.keys((client as { scriptsSet: object }).scriptsSet);
    expect(defined(d.redis).length).toBeGreaterThan(0);
    expect(defined(d.redis).filter((name) => !name.startsWith("vcw_"))).toEqual([]);
    const queueClient = d.queues.imports.opts.connection;
    expect(queueClient).not.toBe(d.redis);
    expect(defined(queueClient).filter((name) => !name.startsWith("vcw_")).length).toBeGreaterThan(50);
  });

  it("imports a dropped file into the segment and moves it to done/ with its summary", async () => {
    await start();
    drop(inbox, "monday.csv", contactsCsv(40));
    const summary = await waitFor(() => summaryOf(inbox, "monday.csv"), 20_000, "monday.csv in done/");
    expect(summary).toMatchObject({ status: "imported", original: "monday.csv", created: 40, known: 0 });
    expect(summary.totals).toMatchObject({ total: 40, valid: 40, rejected: 0 });
    expect(readdirSync(inbox).filter((f) => f.endsWith(".csv"))).toEqual([]);
    expect(readdirSync(join(inbox, "processing"))).toEqual([]);
    await expectExactly(0, 40);
  });

  it("a re-dropped file (same content, any name) imports nothing new and says so", async () => {
    await start();
    drop(inbox, "a.csv", contactsCsv(25));
    await waitFor(() => summaryOf(inbox, "a.csv"), 20_000, "a.csv done");
    drop(inbox, "a-again.csv", contactsCsv(25));
    const dup = await waitFor(
      () => {
        const name = existsSync(join(inbox, "done"))
          ? readdirSync(join(inbox, "done")).find(
              (f) => f.includes("-dup") && f.endsWith("a-again.csv.summary.json"),
            )
          : undefined;
        return name && JSON.parse(readFileSync(join(inbox, "done", name), "utf8"));
      },
      20_000,
      "duplicate summary",
    );
    expect(dup).toMatchObject({ status: "duplicate", file: "a-again.csv" });
    expect(dup.message).toMatch(/already imported/);
    expect((await daemon!.queues.imports.getJobCounts()).completed).toBe(1);
    await expectExactly(0, 25);
  });

  it("a file with bad rows: the good ones are imported, the bad ones reported in <file>.errors.csv", async () => {
    await start();
    drop(
      inbox,
      "mixed.csv",
      contactsCsv(10, {
        extra: [
          "not-a-phone,Bad,bad@example.com",
          `${phoneOf(3).slice(2)},Dup,d@example.com`,
          "4155550199,,",
        ],
      }),
    );
    const summary = await waitFor(() => summaryOf(inbox, "mixed.csv"), 20_000, "mixed.csv done");
    expect(summary.totals).toMatchObject({ total: 13, valid: 10, rejected: 2, duplicates: 1 });
    expect(summary.created).toBe(10);
    const errors = readFileSync(summary.errorsFile, "utf8");
    expect(errors).toMatch(/not-a-phone/);
    expect(errors).toMatch(/duplicate/);
    expect(summary.errorsFile).toMatch(/done\/.*mixed\.csv\.errors\.csv$/);
    await expectExactly(0, 10);
  });

  it("with 5xx, 429 and commit-then-fail from the service, each valid contact is there exactly once", async () => {
    await start();
    t.sim.setFaults({
      errorRate: 0.1,
      commitThenFailRate: 0.15,
      commitThenFailMode: "mixed",
      rateLimit: 300,
    });
    drop(inbox, "faulty.csv", contactsCsv(150, { from: 1000 }));
    const summary = await waitFor(() => summaryOf(inbox, "faulty.csv"), 30_000, "faulty.csv done");
    expect(t.sim.stats.committedThenFailed).toBeGreaterThan(0);
    expect(summary.reconciles).toBeGreaterThan(0);
    expect(summary.created + summary.known).toBe(150);
    await expectExactly(1000, 150);
  });

  it("only contact files are taken from the inbox: others stay where they are, said once", async () => {
    const logs = captureLogs();
    drop(inbox, "notes.pdf", "%PDF-1.4 not contacts");
    drop(inbox, "run.sh", "#!/bin/sh\n");
    await start(logs.logger);
    drop(inbox, "leads.csv", contactsCsv(3, { from: 5_000 }));
    await waitFor(() => summaryOf(inbox, "leads.csv"), 20_000, "leads.csv imported");
    await sleep(500);
    expect(readdirSync(inbox).sort()).toEqual(["done", "notes.pdf", "processing", "run.sh"]);
    const warned = logs
      .text()
      .split("\n")
      .filter((l) => l.includes("not a contact file"));
    expect(warned.filter((l) => l.includes("notes.pdf"))).toHaveLength(1);
    expect(warned.filter((l) => l.includes("run.sh"))).toHaveLength(1);
  });

  it("a file still being written through an open descriptor: every row is imported, and the summary says so", async () => {
    await start();
    mkdirSync(inbox, { recursive: true });
    const path = join(inbox, "growing.csv");
    const fd = openSync(path, "w");
    const rows = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => `${phoneOf(from + i).slice(2)},Contact ${from + i},\n`).join("");
    writeSync(fd, `Phone,First Name,Email\n${rows(30_000, 100)}`);
    for (let k = 1; k <= 10; k++) {
      await sleep(500);
      writeSync(fd, rows(30_000 + k * 100, 100));
    }
    closeSync(fd);
    const summary = await waitFor(
      () => {
        const s = summaryOf(inbox, "growing.csv");
        return s && s.totals.total === 1_100 ? s : undefined;
      },
      30_000,
      "growing.csv imported whole",
    );
    expect(summary.totals).toMatchObject({ total: 1_100, valid: 1_100 });
    expect(summary.changedWhileImporting).toBeGreaterThan(0);
    const beside = readFileSync(join(inbox, "done", summary.file), "utf8")
      .trim()
      .split("\n");
    expect(beside).toHaveLength(1_101);
    await expectExactly(30_000, 1_100);
  }, 60_000);

  it("a service that stores each contact but answers 200 with an HTML page: each contact once, none 'refused'", async () => {
    t.sim.setFaults({ ...NO_FAULTS, commitThenFailRate: 1, commitThenFailMode: "html" });
    await start();
    drop(inbox, "proxied.csv", contactsCsv(50, { from: 60_000 }));
    const summary = await waitFor(() => summaryOf(inbox, "proxied.csv"), 30_000, "proxied.csv imported");
    expect(summary).toMatchObject({ status: "imported", created: 50, failed: 0 });
    expect(summary.totals.codes?.service_rejected).toBeUndefined();
    drop(inbox, "proxied-again.csv", `${contactsCsv(50, { from: 60_000 })}\n`);
    const again = await waitFor(() => summaryOf(inbox, "proxied-again.csv"), 30_000, "re-dropped");
    expect(again).toMatchObject({ created: 0, known: 50 });
    await expectExactly(60_000, 50);
  });

  it("files already waiting when the daemon starts are imported too", async () => {
    drop(inbox, "early-1.csv", contactsCsv(5));
    drop(inbox, "early-2.csv", contactsCsv(5, { from: 5 }));
    await start();
    await waitFor(() => summaryOf(inbox, "early-1.csv"), 20_000, "early-1 done");
    await waitFor(() => summaryOf(inbox, "early-2.csv"), 20_000, "early-2 done");
    await expectExactly(0, 10);
  });

  it("a file still being written is picked up only once complete", async () => {
    await start();
    const path = join(inbox, "slow.csv");
    const text = contactsCsv(30);
    // Written in four parts, with pauses shorter than the 200 ms the size must stay stable.
    const part = Math.ceil(text.length / 4);
    for (let i = 0; i < 4; i++) {
      appendFileSync(path, text.slice(i * part, (i + 1) * part));
      await sleep(120);
    }
    const summary = await waitFor(() => summaryOf(inbox, "slow.csv"), 20_000, "slow.csv done");
    expect(summary.totals.total).toBe(30);
    await expectExactly(0, 30);
  });

  it("a file that cannot be read ends in rejected/ with a summary saying why, and in the failed set", async () => {
    await start();
    drop(inbox, "photo.csv", "\u0000\u0001binary\u0000");
    const summary = await waitFor(
      () => summaryOf(inbox, "photo.csv", "rejected"),
      20_000,
      "photo.csv rejected",
    );
    expect(summary.status).toBe("rejected");
    expect(summary.reason).toMatch(/binary/i);
    // The summary is written just before the job is failed: wait for BullMQ to record it.
    await waitFor(
      async () => ((await daemon!.queues.imports.getFailedCount()) === 1 ? true : undefined),
      10_000,
    );
  });

  it("file names from the folder are never used as paths", async () => {
    await start();
    drop(inbox, "bad\nname|*.csv", contactsCsv(3));
    drop(inbox, ".hidden.csv", contactsCsv(3, { from: 100 }));
    const done = await waitFor(
      () =>
        existsSync(join(inbox, "done"))
          ? readdirSync(join(inbox, "done")).find((f) => f.endsWith(".summary.json"))
          : undefined,
      20_000,
      "odd name done",
    );
    expect(done).toMatch(/^[0-9a-f]{12}-bad_name__\.csv\.summary\.json$/);
    await expectExactly(0, 3);
  });

  it("a segment name pattern gives each file its own segment, with only its contacts", async () => {
    writeJob(join(home, "jobs"), "leads", inbox, `per-file-${home.slice(-6)} {file} {sha}`);
    await start();
    drop(inbox, "north.csv", contactsCsv(3, { from: 500 }));
    drop(inbox, "south.csv", contactsCsv(4, { from: 600 }));
    const north = await waitFor(() => summaryOf(inbox, "north.csv"), 20_000, "north done");
    const south = await waitFor(() => summaryOf(inbox, "south.csv"), 20_000, "south done");
    expect(north.segment!.name).toBe(`per-file-${home.slice(-6)} north.csv ${north.sha256.slice(0, 8)}`);
    expect(south.segment!.id).not.toBe(north.segment!.id);
    const phones = async (id: string) => (await t.client.contacts.list(id)).map((c) => c.phone).sort();
    expect(await phones(north.segment!.id)).toEqual([0, 1, 2].map((i) => phoneOf(500 + i)));
    expect(await phones(south.segment!.id)).toEqual([0, 1, 2, 3].map((i) => phoneOf(600 + i)));
  });
});
