/**
 * Client requests per second against the in-process simulator, beside raw fetch doing the same
 * requests in the same run. Rounds alternate (raw, client, raw, client, ...) so that drift of the
 * machine hits both alike; the ratio is of the medians.
 */
import { createClient } from "../src/api/index.ts";
import { startSimulator } from "../src/simulator/server.ts";
import { fmt, median, pool, table, timeIt } from "./lib.ts";

const KEY = "bench-key-0123456789";
const ROUNDS = 5;
const REQUESTS = 2_000;

export async function run(): Promise<void> {
  const sim = await startSimulator({ apiKey: KEY });
  const client = createClient({ baseUrl: sim.url, apiKey: KEY });
  const segment = await client.segments.create({ name: "bench" });
  for (let i = 0; i < 10; i++) await client.segments.create({ name: `bench-${i}` });

  const headers = { "x-api-key": KEY, accept: "application/json", "content-type": "application/json" };
  const variants = {
    "segments.list (GET)": {
      raw: async () => {
        const r = await fetch(`${sim.url}/segment/list`, { headers });
        await r.json();
      },
      client: () => client.segments.list(),
    },
    "contacts.create (POST)": {
      raw: async (i: number) => {
        const r = await fetch(`${sim.url}/segment/contact/create?id=${segment.id}`, {
          method: "POST",
          headers,
          body: JSON.stringify({ phone: `+1415${String(1_000_000 + i)}`, first_name: "Bench" }),
        });
        await r.json();
      },
      client: (i: number) =>
        client.contacts.create(segment.id!, { phone: `+1416${String(1_000_000 + i)}`, first_name: "Bench" }),
    },
  };

  const rows = [];
  for (const concurrency of [1, 16]) {
    for (const [name, v] of Object.entries(variants)) {
      const raw: number[] = [];
      const ours: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        raw.push(REQUESTS / ((await timeIt(() => pool(REQUESTS, concurrency, v.raw))) / 1000));
        ours.push(REQUESTS / ((await timeIt(() => pool(REQUESTS, concurrency, v.client))) / 1000));
      }
      rows.push({
        operation: name,
        concurrency,
        "raw fetch req/s": fmt(median(raw)),
        "client req/s": fmt(median(ours)),
        "client / raw": fmt(median(ours) / median(raw), 2),
      });
    }
  }
  await sim.close();
  console.log(
    `\nclient vs raw fetch, in-process simulator, ${REQUESTS} requests x ${ROUNDS} alternating rounds (medians)`,
  );
  table(rows);
}
