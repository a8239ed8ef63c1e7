import { link, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type Simulator, type SimulatorOptions, startSimulator } from "../simulator/server.ts";

/** The embedded simulator a process uses: the one it started, or one another vcw under the same home runs. */
export interface EmbeddedSimulator {
  url: string;
  /** The key it accepts: ours when we started it, the starter's when we joined it. */
  apiKey: string;
  /** The pid of the process that runs it, when that is another one. */
  joinedPid?: number;
  close(): Promise<void>;
}

/** The record: a claim (pid only) while its simulator starts, then its address and key. */
interface Record {
  pid: number;
  url?: string;
  apiKey?: string;
}

/** Where a running embedded simulator is written down (mode 0600: it holds the simulator's key). */
export const embeddedRecordOf = (home: string) => join(home, "simulator.address.json");

/** How long a process waits for a live claimant's simulator to answer before taking the record over. */
const CLAIM_WAIT_MS = 15_000;

/**
 * The embedded simulator of `home`: the one another vcw process runs there, when it answers;
 * else one started here on the state file, and written down for the next process. Two simulators
 * on one state file would each hand out the same ids and overwrite each other's snapshot, so a
 * second daemon, `vcw import` or `vcw apply` beside a running daemon joins its simulator. The
 * record is created exclusively before the simulator starts: of processes starting at once, one
 * starts it and the others wait for it to answer.
 */
export async function embeddedSimulator(
  home: string,
  options: Omit<SimulatorOptions, "port">,
): Promise<EmbeddedSimulator> {
  const record = embeddedRecordOf(home);
  await mkdir(home, { recursive: true });
  const waitUntil = Date.now() + CLAIM_WAIT_MS;
  for (;;) {
    if (await claim(record)) return startOwn(record, options);
    const running = await readRecord(record);
    // Ours already (a second use in one process): a simulator of its own, as before.
    if (running?.pid === process.pid) return startOwn(record, options);
    if (running?.url && running.apiKey && (await answers(running.url, running.apiKey)))
      return { url: running.url, apiKey: running.apiKey, joinedPid: running.pid, close: async () => {} };
    // A claim of a live process is starting its simulator: wait for it, within bounds.
    if (running && alive(running.pid) && Date.now() < waitUntil) {
      await sleep(100);
      continue;
    }
    // An unreadable record is taken over only once it is old: no writer is half-way through it.
    if (!running && (await ageMs(record)) < 2_000 && Date.now() < waitUntil) {
      await sleep(100);
      continue;
    }
    // Left by a process that died (or unreadable for long): take it over.
    await removeStale(record, running?.pid);
  }
}

/**
 * Creates the record with this pid only if none exists: the one process that may start the
 * simulator. Written whole, then linked in (link fails if the record exists), so no reader sees a
 * half-written record.
 */
async function claim(record: string): Promise<boolean> {
  const draft = `${record}.${process.pid}.tmp`;
  await writeFile(draft, `${JSON.stringify({ pid: process.pid } satisfies Record)}\n`, { mode: 0o600 });
  try {
    await link(draft, record);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await rm(draft, { force: true });
  }
}

/**
 * Removes a record left by `stalePid` (undefined: an unreadable one) if it is still that one. One
 * process at a time (an exclusive folder): two removing at once could remove a claim made between.
 */
async function removeStale(record: string, stalePid: number | undefined): Promise<void> {
  const lock = `${record}.takeover`;
  try {
    await mkdir(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    // A taker that died holding it: free it after a while.
    if ((await ageMs(lock)) > 10_000) await rm(lock, { recursive: true, force: true });
    return sleep(50);
  }
  try {
    const still = await readRecord(record);
    if (still?.pid === stalePid) await rm(record, { force: true });
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/** Replaces the record whole (a rename), so a reader sees the claim or the address, never half. */
async function writeRecord(record: string, r: Record): Promise<void> {
  const draft = `${record}.${process.pid}.tmp`;
  await writeFile(draft, `${JSON.stringify(r)}\n`, { mode: 0o600 });
  await rename(draft, record);
}

async function startOwn(record: string, options: Omit<SimulatorOptions, "port">): Promise<EmbeddedSimulator> {
  let sim: Simulator;
  try {
    sim = await startSimulator({ ...options, port: 0 });
  } catch (error) {
    await rm(record, { force: true });
    throw error;
  }
  await writeRecord(record, { url: sim.url, pid: process.pid, apiKey: options.apiKey });
  return {
    url: sim.url,
    apiKey: options.apiKey,
    close: async () => {
      // Only our own record goes: a process that took over a record we left keeps its.
      if ((await readRecord(record))?.pid === process.pid) await rm(record, { force: true });
      await sim.close();
    },
  };
}

async function readRecord(path: string): Promise<Record | undefined> {
  try {
    const r = JSON.parse(await readFile(path, "utf8")) as Partial<Record>;
    if (typeof r.pid !== "number") return undefined;
    return typeof r.url === "string" && typeof r.apiKey === "string"
      ? { pid: r.pid, url: r.url, apiKey: r.apiKey }
      : { pid: r.pid };
  } catch {
    return undefined;
  }
}

async function ageMs(path: string): Promise<number> {
  try {
    return Date.now() - (await stat(path)).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** Whether a process with this pid runs (EPERM: it does, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether the recorded simulator answers an authorised list within a second. */
async function answers(url: string, apiKey: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/segment/list`, {
      headers: { "x-api-key": apiKey },
      signal: AbortSignal.timeout(1_000),
    });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}
