import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type AdmitDeps, admitFile } from "../../src/inbox/admit-file.ts";
import { dropFolder } from "../../src/inbox/drop-folder.ts";
import { createFileRegistry } from "../../src/inbox/file-registry.ts";
import { folderArrival, folderInbox } from "../../src/inbox/folder-inbox.ts";
import { settleFile } from "../../src/inbox/settle-file.ts";
import { tempDir } from "../support/files.ts";
import { useRedis } from "../support/redis.ts";

// An operator drops a file again under the same name after it was imported and moved to done/.
describe("the same file dropped again under the same name", () => {
  const { redis, keys } = useRedis();

  it("is set aside as a duplicate once its first drop is settled, not queued again and left in processing/", async () => {
    const inbox = join(tempDir("vcw-redrop-"), "inbox");
    mkdirSync(inbox, { recursive: true });
    const queued: string[] = [];
    const d: AdmitDeps = {
      job: "redrop",
      inbox: folderInbox(inbox),
      registry: createFileRegistry(redis, keys()),
      enqueue: async (file) => {
        queued.push(file.file);
        return file.file;
      },
    };
    const drop = () => writeFileSync(join(inbox, "leads.csv"), "phone\n+14155550100\n");
    drop();
    const first = await admitFile(folderArrival(join(inbox, "leads.csv")), d);
    expect(first.kind).toBe("queued");
    if (first.kind !== "queued") return;
    // Its import ran and settled it: moved to done/, the registry told.
    await settleFile(d.inbox, first.file, "done", { status: "imported" });
    await d.registry.settle("redrop", first.sha256, "done");

    drop();
    const again = await admitFile(folderArrival(join(inbox, "leads.csv")), d);
    expect(again.kind).toBe("duplicate");
    expect(queued).toEqual([first.file]);
    expect(readdirSync(dropFolder(inbox).processing)).toEqual([]);
    expect(
      readdirSync(dropFolder(inbox).done).filter(
        (f) => f.includes("-dup") && f.endsWith("leads.csv.summary.json"),
      ),
    ).toHaveLength(1);
  });
});
