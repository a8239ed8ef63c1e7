import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type AdmitDeps, type AdmitResult, admitFile } from "../../src/inbox/admit-file.ts";
import { createFileRegistry } from "../../src/inbox/file-registry.ts";
import { folderArrival, folderInbox } from "../../src/inbox/folder-inbox.ts";
import { tempDir } from "../support/files.ts";
import { useRedis } from "../support/redis.ts";

// Two daemons with the same job watch one inbox during a rolling deploy: each sees every file, and
// one takes it while the other is still hashing it. The loser must ignore the file, not fail.
describe("two admitters racing over one inbox", () => {
  const { redis, keys } = useRedis();

  it("each file is queued once; the other admitter sees it gone, never an error", async () => {
    const inbox = join(tempDir("vcw-race-"), "inbox");
    mkdirSync(inbox, { recursive: true });
    const k = keys();
    const queued: string[] = [];
    const deps = (): AdmitDeps => ({
      job: "race",
      inbox: folderInbox(inbox),
      registry: createFileRegistry(redis, k),
      enqueue: async (file) => {
        queued.push(file.file);
        return file.file;
      },
    });
    const a = deps();
    const b = deps();
    const files = Array.from({ length: 150 }, (_, i) => `f${i}.csv`);
    // Big enough that hashing takes a while: the other side's link and unlink land in between.
    for (const f of files) writeFileSync(join(inbox, f), `phone\n${randomBytes(200_000).toString("hex")}\n`);
    const results: AdmitResult[] = [];
    const errors: unknown[] = [];
    await Promise.all(
      files.flatMap((f) =>
        [a, b].map((d) =>
          admitFile(folderArrival(join(inbox, f)), d).then(
            (r) => results.push(r),
            (e: unknown) => errors.push(e),
          ),
        ),
      ),
    );
    expect(errors.map(String)).toEqual([]);
    expect(new Set(queued).size).toBe(files.length);
    expect(queued.length).toBe(files.length);
    expect(results.filter((r) => r.kind === "ignored").length).toBe(files.length);
    expect(readdirSync(inbox).filter((n) => n.endsWith(".csv"))).toEqual([]);
  }, 60_000);
});
