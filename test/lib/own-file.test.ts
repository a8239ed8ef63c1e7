import { chmodSync, chownSync, mkdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createOwnFile,
  ensurePrivateFolder,
  readOwnFile,
  UntrustedFileError,
  writeOwnFile,
} from "../../src/lib/own-file.ts";
import { tempDir } from "../support/files.ts";

const asRoot = process.getuid?.() === 0;
/** A user other than this one (nobody), for files only root can give away. */
const OTHER_UID = 65534;

/** A private folder (0700) holding `name` with `text`, mode 0600: a record vcw wrote. */
function ownRecord(name = "record.json", text = '{"pid":1}\n') {
  const dir = tempDir("vcw-own-");
  const path = join(dir, name);
  writeFileSync(path, text, { mode: 0o600 });
  return { dir, path };
}

const refusal = (path: string) =>
  readOwnFile(path).then(
    () => "read",
    (e: unknown) => e,
  );

describe("readOwnFile: a file vcw reads back only when no one else could have written it", () => {
  it("reads a regular file of this user's, mode 0600, in a folder only it may write; none is undefined", async () => {
    const { dir, path } = ownRecord();
    expect(await readOwnFile(path)).toBe('{"pid":1}\n');
    expect(await readOwnFile(join(dir, "absent.json"))).toBeUndefined();
    expect(await readOwnFile(join(dir, "no-folder", "absent.json"))).toBeUndefined();
  });

  it("refuses a symbolic link, even to a file of this user's that passes every check", async () => {
    const { dir, path } = ownRecord("target.json");
    const link = join(dir, "record.json");
    symlinkSync(path, link);
    const error = await refusal(link);
    expect(error).toBeInstanceOf(UntrustedFileError);
    expect((error as Error).message).toBe(
      `${link} is not trusted: it is a symbolic link (vcw follows none: remove the link)`,
    );
  });

  it("refuses a file readable by its group (0640) or by anyone (0644), naming the mode", async () => {
    for (const mode of [0o640, 0o644, 0o606]) {
      const { path } = ownRecord();
      chmodSync(path, mode);
      expect(((await refusal(path)) as Error).message).toBe(
        `${path} is not trusted: its mode is 0${mode.toString(8)}: others may read or write it (it must be 0600; remove it, or chmod 600 it)`,
      );
    }
  });

  it.skipIf(!asRoot)("refuses a file another user owns (as root: chowned to nobody)", async () => {
    const { path } = ownRecord();
    chownSync(path, OTHER_UID, OTHER_UID);
    expect(((await refusal(path)) as Error).message).toBe(
      `${path} is not trusted: it belongs to uid ${OTHER_UID}, not to this user (uid 0): remove it`,
    );
  });

  it.skipIf(!asRoot)("refuses a file in a folder another user owns", async () => {
    const { dir, path } = ownRecord();
    chownSync(dir, OTHER_UID, OTHER_UID);
    expect(((await refusal(path)) as Error).message).toBe(
      `${dir} is not trusted: the folder belongs to uid ${OTHER_UID}, not to this user (uid 0)`,
    );
  });

  it("refuses a file in a folder others may write in (0777, 0770), where anyone could have put it", async () => {
    for (const mode of [0o777, 0o770]) {
      const { dir, path } = ownRecord();
      chmodSync(dir, mode);
      expect(((await refusal(path)) as Error).message).toBe(
        `${dir} is not trusted: the folder's mode is 0${mode.toString(8)}: others may write in it (chmod go-w ${dir})`,
      );
    }
  });

  it("refuses what is not a regular file: a folder in its place", async () => {
    const dir = tempDir("vcw-own-");
    mkdirSync(join(dir, "record.json"), { mode: 0o700 });
    expect(((await refusal(join(dir, "record.json"))) as Error).message).toBe(
      `${join(dir, "record.json")} is not trusted: it is not a regular file`,
    );
  });
});

describe("writing vcw's own files", () => {
  it("writeOwnFile replaces a file whole with mode 0600, and replaces a link rather than writing through it", async () => {
    const { dir, path } = ownRecord("elsewhere.json", "theirs\n");
    const record = join(dir, "record.json");
    symlinkSync(path, record);
    await writeOwnFile(record, "ours\n");
    expect(await readOwnFile(record)).toBe("ours\n");
    expect(statSync(record).mode & 0o777).toBe(0o600);
    expect(await readOwnFile(path)).toBe("theirs\n");
  });

  it("createOwnFile makes a file once: a second call leaves the first's text", async () => {
    const dir = tempDir("vcw-own-");
    const path = join(dir, "key");
    expect(await createOwnFile(path, "first\n")).toBe(true);
    expect(await createOwnFile(path, "second\n")).toBe(false);
    expect(await readOwnFile(path)).toBe("first\n");
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("ensurePrivateFolder makes a missing folder 0700, and refuses one others may write in", async () => {
    const parent = tempDir("vcw-own-");
    const made = join(parent, "a", "home");
    await ensurePrivateFolder(made);
    expect(statSync(made).mode & 0o777).toBe(0o700);
    const open = join(parent, "open");
    mkdirSync(open);
    chmodSync(open, 0o775);
    await expect(ensurePrivateFolder(open)).rejects.toThrow(
      `${open} is not trusted: the folder's mode is 0775: others may write in it (chmod go-w ${open})`,
    );
  });
});
