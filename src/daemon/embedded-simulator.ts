import { mkdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createOwnFile, ensurePrivateFolder, writeOwnFile } from "../lib/own-file.ts";
import { type Simulator, type SimulatorOptions, startSimulator } from "../simulator/server.ts";
import { StartupError } from "./errors.ts";
import { type HomeRecord, type RecordFound, readHomeRecord } from "./home-record.ts";

/** The embedded simulator a process uses: the one it started, or one another vcw under the same home runs. */
export interface EmbeddedSimulator {
  url: string;
  /** The pid of the process that runs it, when that is another one. */
  joinedPid?: number;
  /** It honours `Idempotency-Key` (as started, here or by the process joined). */
  idempotencyKeys: boolean;
  /** Why a record found was replaced, when it was: its process had gone. */
  replaced?: string;
  close(): Promise<void>;
}

/** Where a running embedded simulator is written down: a claim (pid only) while it starts, then its address. */
export const embeddedRecordOf = (home: string) => join(home, "simulator.address.json");

/** How long a process waits for a live claimant's simulator to answer before taking the record over. */
const CLAIM_WAIT_MS = 15_000;

/**
 * The embedded simulator of `home`: the one another vcw process runs there, when its record is
 * trusted (daemon/home-record.ts) and it answers `options.apiKey`, vcw's own key (never one from
 * the record); else one started here on the state file, and written down for the next process.
 * Two simulators on one state file would each hand out the same ids and overwrite each other's
 * snapshot, so a second daemon, `vcw import` or `vcw api` beside a running daemon joins its
 * simulator. The record is created exclusively before the simulator starts: of processes starting
 * at once, one starts it and the others wait for it to answer. With `join` alone, none is started.
 */
export async function embeddedSimulator(
  home: string,
  options: Omit<SimulatorOptions, "port">,
  mode?: "join-or-start",
): Promise<EmbeddedSimulator>;
export async function embeddedSimulator(
  home: string,
  options: Omit<SimulatorOptions, "port">,
  mode: "join-or-start" | "join",
): Promise<EmbeddedSimulator | undefined>;
export async function embeddedSimulator(
  home: string,
  options: Omit<SimulatorOptions, "port">,
  mode: "join-or-start" | "join" = "join-or-start",
): Promise<EmbeddedSimulator | undefined> {
  const record = embeddedRecordOf(home);
  if (mode === "join") return joinOnly(record, await readHomeRecord(record), options.apiKey);
  await ensurePrivateFolder(home);
  const waitUntil = Date.now() + CLAIM_WAIT_MS;
  let replaced: string | undefined;
  for (;;) {
    if (await createOwnFile(record, claimText())) return startOwn(record, options, replaced);
    const found = await readHomeRecord(record);
    if (found.kind === "live") {
      const { pid, url } = found.record;
      // Ours already (a second use in one process): a simulator of its own, as before.
      if (pid === process.pid) return startOwn(record, options, replaced);
      if (url && (await answers(url, options.apiKey, record, pid))) return joined(found.record, url);
      // A live claim is starting its simulator: wait for it, within bounds.
      if (Date.now() < waitUntil) {
        await sleep(100);
        continue;
      }
    }
    // An unreadable record is taken over only once it is old: no writer is half-way through it.
    if (found.kind === "unreadable" && (await ageMs(record)) < 2_000 && Date.now() < waitUntil) {
      await sleep(100);
      continue;
    }
    if (found.kind === "stale") replaced = `${record} was replaced: ${found.reason}`;
    // Left by a process that died (or unreadable, or silent, for long): take it over.
    await removeStale(
      record,
      found.kind === "live" ? found.record.pid : found.kind === "stale" ? found.pid : undefined,
    );
  }
}

const claimText = () => `${JSON.stringify({ pid: process.pid } satisfies HomeRecord)}\n`;

const joined = (r: HomeRecord, url: string): EmbeddedSimulator => ({
  url,
  joinedPid: r.pid,
  idempotencyKeys: r.idempotencyKeys === true,
  close: async () => {},
});

/** A running simulator to join, or undefined (none, or its process gone); never one started here. */
async function joinOnly(
  record: string,
  found: RecordFound,
  apiKey: string,
): Promise<EmbeddedSimulator | undefined> {
  if (found.kind !== "live" || !found.record.url) return undefined;
  const { url, pid } = found.record;
  return (await answers(url, apiKey, record, pid)) ? joined(found.record, url) : undefined;
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
    if ((await pidOf(record)) === stalePid) await rm(record, { force: true });
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/** The pid a record holds, stale or live; undefined when there is none or it is unreadable. */
async function pidOf(record: string): Promise<number | undefined> {
  const found = await readHomeRecord(record);
  return found.kind === "live" ? found.record.pid : found.kind === "stale" ? found.pid : undefined;
}

async function startOwn(
  record: string,
  options: Omit<SimulatorOptions, "port">,
  replaced: string | undefined,
): Promise<EmbeddedSimulator> {
  let sim: Simulator;
  try {
    sim = await startSimulator({ ...options, port: 0 });
  } catch (error) {
    await rm(record, { force: true });
    throw error;
  }
  const keys = options.idempotencyKeys === true;
  const written: HomeRecord = { pid: process.pid, url: sim.url, ...(keys ? { idempotencyKeys: true } : {}) };
  await writeOwnFile(record, `${JSON.stringify(written)}\n`);
  return {
    url: sim.url,
    idempotencyKeys: keys,
    ...(replaced ? { replaced } : {}),
    close: async () => {
      // Only our own record goes: a process that took over a record we left keeps its.
      if ((await pidOf(record).catch(() => undefined)) === process.pid) await rm(record, { force: true });
      await sim.close();
    },
  };
}

async function ageMs(path: string): Promise<number> {
  try {
    return Date.now() - (await stat(path)).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/**
 * Whether the recorded simulator answers an authorised list within a second. One that answers and
 * refuses our key runs with another (VCS_API_KEY set in one process and not in the other): joining
 * it would fail every request, and starting a second on the same state would corrupt it.
 */
async function answers(url: string, apiKey: string, record: string, pid: number): Promise<boolean> {
  let status: number;
  try {
    const res = await fetch(`${url}/segment/list`, {
      headers: { "x-api-key": apiKey },
      signal: AbortSignal.timeout(1_000),
    });
    await res.body?.cancel();
    status = res.status;
  } catch {
    return false;
  }
  if (status === 401 || status === 403)
    throw new StartupError(
      `the embedded simulator at ${url} (pid ${pid}, ${record}) refuses this process's key: it was started with another. Run with the VCS_API_KEY it was started with (or with none, if it had none), or stop it first`,
    );
  return status >= 200 && status < 300;
}
