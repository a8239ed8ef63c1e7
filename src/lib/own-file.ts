import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { link, mkdir, open, rename, rm, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { VcwError } from "./vcw-error.ts";

/**
 * A file vcw writes for itself and reads back (a record of what it runs, a key) that fails a check
 * anyone else could have made it fail: it names the file and the check.
 */
export class UntrustedFileError extends VcwError {
  override name = "UntrustedFileError";
  constructor(
    readonly path: string,
    readonly check: string,
  ) {
    super(`${path} is not trusted: ${check}`);
  }
}

// Windows has no O_NOFOLLOW, owners or modes as these checks mean them: there they are skipped.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCK = constants.O_NONBLOCK ?? 0;
const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** This process's user, or undefined where there are no owners to compare (Windows). */
const me = () => process.getuid?.();

/**
 * The folder a file of ours lives in: created private (0700) if missing; refused when another user
 * owns it or may write in it (they could put a record there before vcw does, or swap one).
 */
export async function ensurePrivateFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await checkFolder(folder);
}

async function checkFolder(folder: string): Promise<void> {
  const uid = me();
  if (uid === undefined) return;
  const st = await stat(folder);
  if (st.uid !== uid)
    throw new UntrustedFileError(
      folder,
      `the folder belongs to uid ${st.uid}, not to this user (uid ${uid})`,
    );
  if (st.mode & 0o022)
    throw new UntrustedFileError(
      folder,
      `the folder's mode is ${octal(st.mode)}: others may write in it (chmod go-w ${folder})`,
    );
}

/**
 * The text of a file vcw wrote for itself, or undefined when there is none. Trusted only when no
 * one else could have written or swapped it: its folder is this user's alone, and the file itself
 * (opened without following a symbolic link, then checked on the open descriptor, so it cannot be
 * swapped between check and read) is a regular file of this user's, readable by no one else.
 */
export async function readOwnFile(path: string): Promise<string | undefined> {
  await checkFolder(dirname(path)).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    // Non-blocking: a FIFO put in its place must not hang the open.
    handle = await open(path, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP")
      throw new UntrustedFileError(path, "it is a symbolic link (vcw follows none: remove the link)");
    throw error;
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new UntrustedFileError(path, "it is not a regular file");
    const uid = me();
    if (uid !== undefined) {
      if (st.uid !== uid)
        throw new UntrustedFileError(
          path,
          `it belongs to uid ${st.uid}, not to this user (uid ${uid}): remove it`,
        );
      if (st.mode & 0o077)
        throw new UntrustedFileError(
          path,
          `its mode is ${octal(st.mode)}: others may read or write it (it must be 0600; remove it, or chmod 600 it)`,
        );
    }
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

/** A draft beside `path`, written whole with mode 0600 and never through a link. */
async function draftOf(path: string, text: string): Promise<string> {
  const draft = `${path}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  const handle = await open(
    draft,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW,
    0o600,
  );
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
  return draft;
}

/** Replaces `path` whole (a rename: a reader sees the old text or the new), mode 0600. */
export async function writeOwnFile(path: string, text: string): Promise<void> {
  const draft = await draftOf(path, text);
  try {
    await rename(draft, path);
  } catch (error) {
    await rm(draft, { force: true });
    throw error;
  }
}

/**
 * Creates `path` with `text`, mode 0600, only if nothing is there: true when this call made it.
 * Written whole, then linked in, so no reader sees a half-written file.
 */
export async function createOwnFile(path: string, text: string): Promise<boolean> {
  const draft = await draftOf(path, text);
  try {
    await link(draft, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await rm(draft, { force: true });
  }
}
