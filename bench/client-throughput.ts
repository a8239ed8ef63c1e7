/**
 * `npm run bench -- client [--base REF|DIR] [--rounds N] [--requests N]`: client requests per
 * second against the in-process simulator, beside raw fetch doing the same requests in the same
 * run, and with `--base` the base's client (a git ref built in a temp directory, or a built tree)
 * against the same simulator. Rounds alternate (raw, ours, base, raw, ...) so that drift of the
 * machine hits all alike; ratios are of the medians.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createClient } from "../src/api/index.ts";
import type { SendFence } from "../src/api/send-fence.ts";
import { startSimulator } from "../src/simulator/server.ts";
import { baseTree } from "./base-tree.ts";
import { fmt, median, pool, table, timeIt } from "./lib.ts";

const KEY = "bench-key-0123456789";

type Task = (i: number) => Promise<unknown>;

export async function run(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { base: { type: "string" }, rounds: { type: "string" }, requests: { type: "string" } },
    strict: false,
  });
  const rounds = Number(values.rounds ?? 5);
  const requests = Number(values.requests ?? 2_000);
  const baseDir = typeof values.base === "string" ? baseTree(values.base) : undefined;
  const baseCreate = baseDir
    ? (
        (await import(pathToFileURL(path.join(baseDir, "dist/src/api/index.js")).href)) as {
          createClient: typeof createClient;
        }
      ).createClient
    : undefined;

  const sim = await startSimulator({ apiKey: KEY });
  const client = createClient({ baseUrl: sim.url, apiKey: KEY });
  const base = baseCreate?.({ baseUrl: sim.url, apiKey: KEY });
  const segment = (await client.segments.create({ name: "bench" })).id!;
  for (let i = 0; i < 10; i++) await client.segments.create({ name: `bench-${i}` });
  // A fence that lets every send go: what the check itself costs (a create's is a Redis script).
  const fence: SendFence = { beforeSend: async () => undefined };

  const headers = { "x-api-key": KEY, accept: "application/json", "content-type": "application/json" };
  const rawList: Task = async () => {
    const r = await fetch(`${sim.url}/segment/list`, { headers });
    await r.json();
  };
  const rawCreate: Task = async (i) => {
    const r = await fetch(`${sim.url}/segment/contact/create?id=${segment}`, {
      method: "POST",
      headers,
      body: JSON.stringify({ phone: `+1415${String(1_000_000 + i)}`, first_name: "Bench" }),
    });
    await r.json();
  };
  type Of = NonNullable<typeof base>;
  const variants: { name: string; raw: Task; client: (c: Of, prefix: string) => Task }[] = [
    { name: "segments.list (GET)", raw: rawList, client: (c) => () => c.segments.list() },
    {
      name: "contacts.create (POST)",
      raw: rawCreate,
      client: (c, p) => (i) =>
        c.contacts.create(segment, { phone: `+1${p}${String(1_000_000 + i)}`, first_name: "Bench" }),
    },
    {
      name: "contacts.create, fenced",
      raw: rawCreate,
      client: (c, p) => (i) =>
        c.contacts.create(
          segment,
          { phone: `+1${p}${String(2_000_000 + i)}`, first_name: "Bench" },
          { fence },
        ),
    },
  ];

  const rows = [];
  for (const concurrency of [1, 16]) {
    for (const v of variants) {
      const measured: Record<"raw" | "ours" | "base", number[]> = { raw: [], ours: [], base: [] };
      const rate = async (task: Task) =>
        requests / ((await timeIt(() => pool(requests, concurrency, task))) / 1000);
      for (let round = 0; round < rounds; round++) {
        measured.raw.push(await rate(v.raw));
        measured.ours.push(await rate(v.client(client, "416")));
        if (base) measured.base.push(await rate(v.client(base, "417")));
      }
      const [raw, ours] = [median(measured.raw), median(measured.ours)];
      rows.push({
        operation: v.name,
        concurrency,
        "raw fetch req/s": fmt(raw),
        "client req/s": fmt(ours),
        "client / raw": fmt(ours / raw, 2),
        ...(base
          ? {
              "base req/s": fmt(median(measured.base)),
              "base / raw": fmt(median(measured.base) / raw, 2),
              "client / base": fmt(ours / median(measured.base), 2),
            }
          : {}),
      });
    }
  }
  await sim.close();
  console.log(
    `\nclient vs raw fetch${base ? ` and the base (${values.base})` : ""}, in-process simulator, ${requests} requests x ${rounds} alternating rounds (medians; goal client / raw >= 0.8)`,
  );
  table(rows);
}
