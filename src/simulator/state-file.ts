import { existsSync, readFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import type { StoreData } from "./store.ts";

/** Reads a saved simulator state, or undefined when there is none yet. */
export function loadState(path: string): StoreData | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, "utf8")) as StoreData;
  } catch (error) {
    throw new Error(`Cannot read the simulator state file ${path}: ${(error as Error).message}`);
  }
}

/** Saves the state at most every `intervalMs`, atomically (write then rename). */
export function createStateSaver(path: string, data: StoreData, intervalMs = 200) {
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  const save = () => {
    timer = undefined;
    writing = writing.then(async () => {
      const tmp = `${path}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(data));
      await rename(tmp, path);
    });
    return writing;
  };
  return {
    changed() {
      timer ??= setTimeout(save, intervalMs);
    },
    async flush() {
      if (timer) {
        clearTimeout(timer);
        await save();
      }
      await writing;
    },
  };
}
