import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startCli } from "../support/cli.ts";
import { API_KEY } from "../support/fixtures.ts";

const headers = { "x-api-key": API_KEY, "content-type": "application/json" };

async function startSim(stateFile: string): Promise<{ child: ChildProcess; url: string }> {
  const { child, firstLine } = await startCli([
    "simulator",
    "--port",
    "0",
    "--api-key",
    API_KEY,
    "--state-file",
    stateFile,
  ]);
  return { child, url: firstLine.trim() };
}

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
}

/**
 * Sends creates of `phones` with 16 at once and SIGKILLs the simulator once `killAfter` of them are
 * acknowledged, so that requests are in flight when it dies. Returns the phones answered 2xx.
 */
async function createUntilKilled(
  child: ChildProcess,
  url: string,
  segmentId: string,
  phones: string[],
  killAfter: number,
) {
  const acknowledged: string[] = [];
  const queue = [...phones];
  const exited = once(child, "exit");
  const worker = async () => {
    for (let phone = queue.shift(); phone; phone = queue.shift()) {
      try {
        const res = await post(`${url}/segment/contact/create?id=${segmentId}`, { phone });
        if (res.ok) acknowledged.push(phone);
        await res.body?.cancel();
      } catch {
        return; // the simulator is gone
      }
      if (acknowledged.length >= killAfter && child.exitCode === null) child.kill("SIGKILL");
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await exited;
  return acknowledged;
}

async function listPhones(url: string, segmentId: string): Promise<string[]> {
  const res = await fetch(`${url}/segment/contact/list?id=${segmentId}`, { method: "POST", headers });
  expect(res.status).toBe(200);
  return ((await res.json()) as { phone: string }[]).map((c) => c.phone);
}

describe("simulator --state-file", () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  });

  it("keeps every acknowledged create across SIGKILLs, none twice", async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), "vcw-sim-kill-")), "state.json");
    let sim = await startSim(stateFile);
    children.push(sim.child);
    const segment = (await (await post(`${sim.url}/segment/create`, { name: "kill" })).json()) as {
      id: string;
    };

    const acknowledged: string[] = [];
    const kills: number[] = [];
    // Two rounds: the second replays a journal over the snapshot the first restart wrote.
    for (const round of [0, 1]) {
      const phones = Array.from({ length: 1_000 }, (_, i) => `+1415${round}${String(100_000 + i)}`);
      const killAfter = 50 + Math.floor(Math.random() * 350);
      kills.push(killAfter);
      acknowledged.push(...(await createUntilKilled(sim.child, sim.url, segment.id, phones, killAfter)));
      sim = await startSim(stateFile);
      children.push(sim.child);
    }

    const segments = (await (await fetch(`${sim.url}/segment/list`, { headers })).json()) as { id: string }[];
    expect(segments.map((s) => s.id)).toEqual([segment.id]);
    const stored = await listPhones(sim.url, segment.id);
    const storedSet = new Set(stored);
    const context = `killed after ${kills.join(" and ")} acknowledgements`;
    expect(acknowledged.length, context).toBeGreaterThanOrEqual(100);
    expect(
      acknowledged.filter((p) => !storedSet.has(p)),
      context,
    ).toEqual([]);
    expect(stored.length - storedSet.size, context).toBe(0);
  }, 40_000);
});
