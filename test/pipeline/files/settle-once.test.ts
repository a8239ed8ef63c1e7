import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createFileRegistry } from "../../../src/inbox/file-registry.ts";
import { folderInbox } from "../../../src/inbox/folder-inbox.ts";
import type { ImportSummary } from "../../../src/pipeline/files/import-outcome.ts";
import { type DroppedFile, settleOnce } from "../../../src/pipeline/files/settle-import.ts";
import { noteCheckInSummary } from "../../../src/pipeline/files/summary-checks.ts";
import type { StartCheckResult } from "../../../src/pipeline/model/results.ts";
import { createStartCheckStore } from "../../../src/pipeline/stores/start-check-store.ts";
import { tempDir } from "../../support/files.ts";
import { jobJ } from "../../support/own-campaign.ts";
import { useRedis } from "../../support/redis.ts";

const check: StartCheckResult = {
  at: new Date().toISOString(),
  campaignsListed: 2,
  contactsListed: 20,
  phonesListed: 20,
  duplicatesRemoved: 0,
  withdrawn: 0,
  campaignsRepaired: 1,
};

/**
 * Two attempts of one import: the one that took the job over settles the file, the check before its
 * campaign's start writes into its summary, then the first attempt, paused past its job's lock and
 * resumed, reaches its own settle (CI: chaos/two-daemons lost the summary's checks this way).
 */
describe("a dropped file settled once", () => {
  const { redis, keys: freshKeys } = useRedis();

  async function oneFile() {
    const keys = freshKeys();
    const inboxDir = tempDir("vcw-settle-once-");
    const inbox = folderInbox(inboxDir);
    const registry = createFileRegistry(redis, keys);
    const d = { startChecks: createStartCheckStore(redis, keys), registry, inboxes: () => inbox };
    const sha256 = "5e771e0c";
    const file = `${sha256}-people.csv`;
    const admitted = await registry.admit("j", sha256, file);
    const gen = admitted.kind === "duplicate" ? 0 : admitted.gen;
    mkdirSync(join(inboxDir, "processing"), { recursive: true });
    writeFileSync(join(inboxDir, "processing", file), "phone\n+12025550100\n");
    const f: DroppedFile = {
      job: "j",
      file,
      original: "people.csv",
      sha256,
      gen,
      admittedAt: Date.now() - 1_000,
    };
    const summary = (attempts: number): ImportSummary =>
      ({
        status: "imported",
        job: "j",
        file,
        sha256,
        attempts,
        finishedAt: new Date().toISOString(),
      }) as ImportSummary;
    const read = () =>
      JSON.parse(readFileSync(join(inboxDir, "done", `${file}.summary.json`), "utf8")) as ImportSummary;
    return { inboxDir, inbox, registry, d, f, summary, read, gen };
  }

  it("an attempt resumed after another settled the file and a check was noted leaves the summary as it is", async () => {
    const { inbox, registry, d, f, summary, read, gen } = await oneFile();
    expect(await settleOnce(f, inbox, summary(2), undefined, d)).toBe(true);
    await registry.settle("j", f.sha256, "done");
    const info = { job: "j", sha256: f.sha256, gen, name: "people" };
    expect(await noteCheckInSummary(jobJ(), info, check, d)).toBe("noted");

    expect(await settleOnce(f, inbox, summary(1), undefined, d)).toBe(false);
    expect(read().attempts).toBe(2);
    expect(read().checksBeforeStart).toMatchObject({ campaignsRepaired: 1, campaigns: [{ name: "people" }] });
  });

  it("two attempts settling at once: one writes, the other finds it settled", async () => {
    const { inboxDir, inbox, d, f, summary } = await oneFile();
    const wrote = await Promise.all([
      settleOnce(f, inbox, summary(1), undefined, d),
      settleOnce(f, inbox, summary(2), undefined, d),
    ]);
    expect(wrote.filter(Boolean)).toHaveLength(1);
    expect(existsSync(join(inboxDir, "done", f.file))).toBe(true);
    expect(existsSync(join(inboxDir, "processing", f.file))).toBe(false);
  });

  it("a summary left by an earlier life of the same content is not taken for this admission's", async () => {
    const { inboxDir, inbox, d, f, summary, read } = await oneFile();
    mkdirSync(join(inboxDir, "done"), { recursive: true });
    writeFileSync(join(inboxDir, "done", f.file), "phone\n");
    const old = { ...summary(7), finishedAt: new Date(f.admittedAt - 60_000).toISOString() };
    writeFileSync(join(inboxDir, "done", `${f.file}.summary.json`), JSON.stringify(old));
    expect(await settleOnce(f, inbox, summary(1), undefined, d)).toBe(true);
    expect(read().attempts).toBe(1);
  });
});
