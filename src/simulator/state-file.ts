import { existsSync, readFileSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
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

/**
 * Saves the state at most every `intervalMs`, atomically (write then rename). A failed save is
 * reported to `onError` and retried with the next change; it never takes the process down.
 */
export function createStateSaver(
  path: string,
  data: StoreData,
  intervalMs = 200,
  onError: (error: unknown) => void = (error) =>
    process.emitWarning(`simulator state not saved: ${String(error)}`),
) {
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  const save = () => {
    timer = undefined;
    writing = writing
      .then(async () => {
        const tmp = `${path}.${process.pid}.tmp`;
        await mkdir(dirname(path), { recursive: true });
        await writeFile(tmp, JSON.stringify(data));
        await rename(tmp, path);
      })
      .catch(onError);
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
