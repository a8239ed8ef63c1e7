import { open } from "node:fs/promises";
import { createInterface } from "node:readline";

/**
 * Appends one JSON line carrying `key` to a JSON-lines file, unless a complete line with that key
 * is already there. The caller holds the file's lock. The line is flushed to disk before this
 * returns; a line torn by a crash (no newline) is closed off, never glued to the next one.
 */
export async function appendOnce(path: string, key: string, line: () => string): Promise<boolean> {
  if (await hasKey(path, key)) return false;
  const handle = await open(path, "a+");
  try {
    const { size } = await handle.stat();
    let lead = "";
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) lead = "\n";
    }
    await handle.appendFile(`${lead}${line()}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

async function hasKey(path: string, key: string): Promise<boolean> {
  const needle = `"key":${JSON.stringify(key)}`;
  const handle = await open(path, "r").catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return undefined;
    throw e;
  });
  if (!handle) return false;
  try {
    const input = handle.createReadStream({ encoding: "utf8", autoClose: false });
    for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      if (!text.includes(needle)) continue;
      try {
        if ((JSON.parse(text) as { key?: unknown }).key === key) return true;
      } catch {
        // A torn line from a crash: not a delivery.
      }
    }
    return false;
  } finally {
    await handle.close();
  }
}
