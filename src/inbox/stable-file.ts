import { stat } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";

/** Resolves once `path`'s size and modification time have not changed for `stableMs`. */
export async function waitUntilStable(path: string, stableMs: number, signal?: AbortSignal): Promise<void> {
  const look = async () => {
    const s = await stat(path);
    return `${s.size}:${s.mtimeMs}`;
  };
  let last = await look();
  let since = Date.now();
  const step = Math.max(10, Math.min(200, Math.floor(stableMs / 4)));
  while (Date.now() - since < stableMs) {
    await sleep(step, undefined, signal ? { signal } : {});
    const now = await look();
    if (now !== last) {
      last = now;
      since = Date.now();
    }
  }
}
