import { isLoopback } from "../lib/listen-address.ts";
import { readOwnFile, UntrustedFileError } from "../lib/own-file.ts";

/**
 * A record under the home of a process another vcw may join (`simulator.address.json`,
 * `redis.json`): its pid, and its address once it has one.
 */
export interface HomeRecord {
  pid: number;
  url?: string;
  /** An embedded simulator's: it honours `Idempotency-Key` (its joiners send keys, and wait no settle time). */
  idempotencyKeys?: boolean;
}

/** What a record says, once it passed the checks of `readOwnFile`. */
export type RecordFound =
  | { kind: "none" }
  /** Not a record (yet): being written by a process of ours, or broken. */
  | { kind: "unreadable" }
  /** Its process is gone: the record may be replaced. */
  | { kind: "stale"; pid: number; reason: string }
  | { kind: "live"; record: HomeRecord };

/**
 * Reads a record to join: refused (UntrustedFileError, naming the file and the check) unless vcw
 * could only have written it itself (lib/own-file.ts) and its address is on this machine's
 * loopback; stale when its process no longer runs.
 */
export async function readHomeRecord(path: string): Promise<RecordFound> {
  const text = await readOwnFile(path);
  if (text === undefined) return { kind: "none" };
  let parsed: { pid?: unknown; url?: unknown; idempotencyKeys?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    return { kind: "unreadable" };
  }
  const { pid, url, idempotencyKeys } = parsed ?? {};
  if (typeof pid !== "number" || !Number.isSafeInteger(pid) || pid <= 0) return { kind: "unreadable" };
  if (url !== undefined && (typeof url !== "string" || !loopbackUrl(url)))
    throw new UntrustedFileError(path, `its address ${JSON.stringify(url)} is not on the loopback interface`);
  const gone = notRunning(pid);
  if (gone) return { kind: "stale", pid, reason: gone };
  const keys = idempotencyKeys === true ? { idempotencyKeys } : {};
  return { kind: "live", record: { pid, ...(url === undefined ? {} : { url }), ...keys } };
}

function loopbackUrl(url: string): boolean {
  try {
    return isLoopback(new URL(url).hostname.replace(/^\[|\]$/g, ""));
  } catch {
    return false;
  }
}

/**
 * Why a record's process is not one of ours that runs, or undefined when it is. A pid another user
 * runs (EPERM) was reused: the process that wrote the record, ours, is gone.
 */
function notRunning(pid: number): string | undefined {
  try {
    process.kill(pid, 0);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ESRCH") return `its process (pid ${pid}) is not running`;
    if (code === "EPERM") return `its pid ${pid} is another user's process now`;
    throw error;
  }
}
