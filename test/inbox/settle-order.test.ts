import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dropFolder } from "../../src/inbox/drop-folder.ts";
import { folderInbox } from "../../src/inbox/folder-inbox.ts";
import type { InboxStore } from "../../src/inbox/inbox-store.ts";
import { settleFile } from "../../src/inbox/settle-file.ts";
import { tempDir } from "../support/files.ts";

// Whoever watches done/ (an operator's script, the daemon tests) reads a file's summary as soon as
// it appears, then the error report it names: the report must already be there.
describe("settling a file: what a reader of done/ sees", () => {
  it("the error report is in done/ before the summary that names it; the file itself moves last", async () => {
    const inbox = join(tempDir("vcw-settle-"), "inbox");
    const folder = dropFolder(inbox);
    mkdirSync(folder.processing, { recursive: true });
    const name = "0123456789ab-mixed.csv";
    writeFileSync(join(folder.processing, name), "phone\nnot-a-phone\n");
    const report = join(folder.processing, `${name}.errors.csv`);
    writeFileSync(report, "phone,row_number\nnot-a-phone,2\n");

    // What a reader of done/ would find at the moment each step lands.
    const seen: string[] = [];
    const store = folderInbox(inbox);
    const watched: InboxStore = {
      ...store,
      async writeText(area, file, text) {
        await store.writeText(area, file, text);
        seen.push(
          `summary written; report ${existsSync(join(folder.done, `${name}.errors.csv`)) ? "there" : "missing"}`,
        );
      },
      async move(from, file, to, toName) {
        const moved = await store.move(from, file, to, toName);
        seen.push(
          `file moved; summary ${existsSync(join(folder.done, `${name}.summary.json`)) ? "there" : "missing"}`,
        );
        return moved;
      },
    };
    await settleFile(watched, name, "done", { status: "imported" }, report);

    expect(seen).toEqual(["summary written; report there", "file moved; summary there"]);
    expect(readFileSync(join(folder.done, `${name}.errors.csv`), "utf8")).toMatch(/not-a-phone/);
    expect(existsSync(report)).toBe(false);
  });
});
