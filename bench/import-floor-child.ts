/**
 * The import's floor, in a process of its own: the contact creates an import must send (one a row,
 * the bodies given ready in a JSON-lines file) with `fetch`, 16 at a time, paced at the service's
 * limit, a refusal (429) tried again after a short wait, each answer read whole and parsed. No vcw
 * code: what the requests alone cost a Node process. Args: base URL, API key, segment id, bodies
 * file, requests a second. Prints one JSON line: `{ rows, cpuMs, seconds, refused }`.
 */
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

const [baseUrl, key, segment, file, perSecondText] = process.argv.slice(2);
const bodies = readFileSync(file!, "utf8").split("\n").filter(Boolean);
const perSecond = Number(perSecondText);
const CONCURRENCY = 16;
const headers = { "x-api-key": key!, accept: "application/json", "content-type": "application/json" };
const url = `${baseUrl}/segment/contact/create?id=${segment}`;

let next = 0;
let refused = 0;
let slotAt = performance.now();
/** Paced at the limit: each send takes the next slot of 1/perSecond s. */
async function paced(): Promise<void> {
  const now = performance.now();
  slotAt = Math.max(slotAt + 1000 / perSecond, now);
  if (slotAt > now) await sleep(slotAt - now);
}

async function sender(): Promise<void> {
  while (next < bodies.length) {
    const body = bodies[next++]!;
    for (;;) {
      await paced();
      const r = await fetch(url, { method: "POST", headers, body });
      const answer = await r.json();
      if (r.status === 429) {
        refused += 1;
        await sleep(100);
        continue;
      }
      if (!r.ok) throw new Error(`create answered ${r.status}: ${JSON.stringify(answer)}`);
      break;
    }
  }
}

const cpu = process.cpuUsage();
const started = performance.now();
await Promise.all(Array.from({ length: CONCURRENCY }, sender));
const used = process.cpuUsage(cpu);
console.log(
  JSON.stringify({
    rows: bodies.length,
    cpuMs: (used.user + used.system) / 1000,
    seconds: (performance.now() - started) / 1000,
    refused,
  }),
);
