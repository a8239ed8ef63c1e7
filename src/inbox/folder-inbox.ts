import { link, lstat, mkdir, opendir, readFile, rename, rm, stat, unlink } from "node:fs/promises";
import { basename, join } from "node:path";
import { sweepTemporaryFiles, TEMP_SUFFIX, writeFileAtomic } from "../lib/atomic-file.ts";
import { fileExists } from "../lib/file-exists.ts";
import { dropFolder, sha256File } from "./drop-folder.ts";
import type { Area, Arrival, InboxStore, StoredFile, Taken } from "./inbox-store.ts";
import { watchInbox } from "./watcher.ts";

/** A file just dropped at `path`, as the folder's watcher reports it. */
export const folderArrival = (path: string): Arrival => ({ name: basename(path), where: path });

/** Only ours: a killed writer's temporary files untouched for an hour (a live error report grows). */
const ORPHANED_AFTER_MS = 3_600_000;

/** A drop folder: `inbox/<job>/` with processing/, done/ and rejected/ inside (decision 0015). */
export function folderInbox(inbox: string): InboxStore {
  const f = dropFolder(inbox);
  const dir = (area: Area) => f[area];
  const pathOf = (area: Area, name: string) => join(dir(area), name);
  return {
    kind: "folder",
    where: inbox,
    whereIs: pathOf,
    watch: (onArrival, o) => watchInbox(inbox, (path) => onArrival(folderArrival(path)), o),
    // A hard link never replaces a file: two daemons can't both take one drop.
    claim: (_a, work) => work(),
    async hashArrival(a) {
      const stats = await lstat(a.where).catch(() => undefined);
      if (!stats) return { ignored: GONE };
      if (!stats.isFile()) return { ignored: "not a regular file" };
      // Another daemon watching this inbox (the same job, in a rolling deploy) may take it meanwhile.
      const sha256 = await sha256File(a.where).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return undefined;
        throw error;
      });
      return sha256 ? { sha256 } : { ignored: GONE };
    },
    take: (a, name, o = {}) =>
      o.aside ? linkAside(a.where, pathOf("processing", name)) : linkIn(a.where, f.processing, name),
    list: (area) => listFolder(dir(area)),
    async stat(area, name) {
      const info = await lstat(pathOf(area, name)).catch(() => undefined);
      return info?.isFile() ? { name, bytes: info.size, modifiedMs: info.mtimeMs } : undefined;
    },
    exists: (area, name) => fileExists(pathOf(area, name)),
    hash: (area, name) =>
      sha256File(pathOf(area, name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return undefined;
        throw error;
      }),
    async readText(area, name, maxBytes = Number.POSITIVE_INFINITY) {
      const path = pathOf(area, name);
      // lstat: a link placed in done/ leads nowhere else (the dashboard serves these).
      const info = await lstat(path).catch(() => undefined);
      if (!info?.isFile() || info.size > maxBytes) return undefined;
      return readFile(path, "utf8").catch(() => undefined);
    },
    async writeText(area, name, text) {
      await mkdir(dir(area), { recursive: true });
      await writeFileAtomic(pathOf(area, name), text);
    },
    async local(area, name) {
      const path = pathOf(area, name);
      return (await fileExists(path)) ? { path, release: async () => undefined } : undefined;
    },
    async putFile(area, name, path) {
      await mkdir(dir(area), { recursive: true });
      await rename(path, pathOf(area, name)).catch(ignoreMissing);
    },
    async move(from, name, to, toName = name) {
      await mkdir(dir(to), { recursive: true });
      return rename(pathOf(from, name), pathOf(to, toName)).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code === "ENOENT") return false;
          throw error;
        },
      );
    },
    remove: (area, name) => rm(pathOf(area, name), { force: true }),
    async sweep() {
      let removed = 0;
      for (const area of ["processing", "done", "rejected"] as const)
        removed += await sweepTemporaryFiles(dir(area), "", ORPHANED_AFTER_MS);
      return removed;
    },
  };
}

const GONE = "gone (taken by another daemon?)";

/** Links `path` into `processing` as `name`; the same name there already is `exists`. */
async function linkIn(path: string, processing: string, name: string): Promise<Taken> {
  await mkdir(processing, { recursive: true });
  const target = join(processing, name);
  try {
    // A hard link never replaces an existing file, unlike rename: the same content already in
    // processing/ under this name is a duplicate, not something to overwrite.
    await link(path, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return "gone";
    if (code !== "EEXIST") throw error;
    // The very file another daemon has just linked in: its admission, not a second drop.
    return (await sameFile(path, target)) ? "gone" : "exists";
  }
  await unlink(path).catch(() => undefined);
  return "taken";
}

/** Moves a duplicate under its fresh name; two daemons setting one drop aside leave one copy. */
async function linkAside(path: string, staged: string): Promise<Taken> {
  try {
    await link(path, staged);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    throw error;
  }
  try {
    await unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    // Another daemon set the same drop aside first: one copy in done/ is enough.
    await unlink(staged).catch(() => undefined);
    return "gone";
  }
  return "taken";
}

/** Whether two paths are links to one file (a hard link made by another admitter). */
async function sameFile(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([stat(a).catch(() => undefined), stat(b).catch(() => undefined)]);
  return !x || (x.ino === y?.ino && x.dev === y.dev);
}

async function* listFolder(dir: string): AsyncGenerator<StoredFile> {
  const entries = await opendir(dir).catch(() => undefined);
  if (!entries) return;
  for await (const entry of entries) {
    if (!entry.isFile() || entry.name.startsWith(".") || entry.name.endsWith(TEMP_SUFFIX)) continue;
    const info = await stat(join(dir, entry.name)).catch(() => undefined);
    if (info) yield { name: entry.name, bytes: info.size, modifiedMs: info.mtimeMs };
  }
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== "ENOENT") throw error;
}
