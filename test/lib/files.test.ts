import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sweepTemporaryFiles, TEMP_SUFFIX, tempNameFor, writeFileAtomic } from "../../src/lib/atomic-file.ts";
import { safeFileName } from "../../src/lib/safe-file-name.ts";
import { tempDir } from "../support/files.ts";

describe("file names and files", () => {
  it("a safe name keeps no bidirectional control: a right-to-left override can't disguise a name", () => {
    expect(safeFileName("invoice\u202Evsc.csv")).toBe("invoicevsc.csv");
    expect(safeFileName("\u2067a\u2069\u200f.csv")).toBe("a.csv");
    expect(safeFileName("../../etc/passwd")).toBe("passwd");
  });

  it("concurrent atomic writes of one file never share a temporary name, and leave none behind", async () => {
    const dir = tempDir();
    const path = join(dir, "out.json");
    expect(new Set(Array.from({ length: 50 }, () => tempNameFor(path))).size).toBe(50);
    await Promise.all(Array.from({ length: 20 }, (_, i) => writeFileAtomic(path, `{"n":${i}}`)));
    expect(JSON.parse(readFileSync(path, "utf8"))).toHaveProperty("n");
    expect(readdirSync(dir)).toEqual(["out.json"]);
  });

  it("a sweep removes the temporary files a killed process left, only ours and only idle ones", async () => {
    const dir = tempDir();
    const orphan = join(dir, `a.csv.errors.csv.123-abcd${TEMP_SUFFIX}`);
    const fresh = join(dir, `b.csv.errors.csv.456-ef01${TEMP_SUFFIX}`);
    const other = join(dir, "someone.tmp");
    for (const f of [orphan, fresh, other]) writeFileSync(f, "x");
    const old = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(orphan, old, old);
    expect(await sweepTemporaryFiles(dir, "", 3_600_000)).toBe(1);
    expect([orphan, fresh, other].map(existsSync)).toEqual([false, true, true]);
  });
});
