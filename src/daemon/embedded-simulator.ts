import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
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

interface Record {
  url: string;
  pid: number;
  apiKey: string;
}

/** Where a running embedded simulator is written down (mode 0600: it holds the simulator's key). */
export const embeddedRecordOf = (home: string) => join(home, "simulator.address.json");

/**
 * The embedded simulator of `home`: the one another vcw process runs there, when it answers;
 * else one started here on the state file, and written down for the next process. Two simulators
 * on one state file would each hand out the same ids and overwrite each other's snapshot, so a
 * second daemon, `vcw import` or `vcw apply` beside a running daemon joins its simulator.
 */
export async function embeddedSimulator(
  home: string,
  options: Omit<SimulatorOptions, "port">,
): Promise<EmbeddedSimulator> {
  const record = embeddedRecordOf(home);
  const running = await readRecord(record);
  if (running && running.pid !== process.pid && (await answers(running))) {
    return { url: running.url, apiKey: running.apiKey, joinedPid: running.pid, close: async () => {} };
  }
  const sim: Simulator = await startSimulator({ ...options, port: 0 });
  await writeFile(
    record,
    `${JSON.stringify({ url: sim.url, pid: process.pid, apiKey: options.apiKey } satisfies Record)}\n`,
    { mode: 0o600 },
  );
  return {
    url: sim.url,
    apiKey: options.apiKey,
    close: async () => {
      // Only our own record goes: a process that started one after us keeps its.
      if ((await readRecord(record))?.pid === process.pid) await rm(record, { force: true });
      await sim.close();
    },
  };
}

async function readRecord(path: string): Promise<Record | undefined> {
  try {
    const r = JSON.parse(await readFile(path, "utf8")) as Partial<Record>;
    return typeof r.url === "string" && typeof r.pid === "number" && typeof r.apiKey === "string"
      ? (r as Record)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the recorded simulator answers an authorised list within a second. */
async function answers(r: Record): Promise<boolean> {
  try {
    const res = await fetch(`${r.url}/segment/list`, {
      headers: { "x-api-key": r.apiKey },
      signal: AbortSignal.timeout(1_000),
    });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}
