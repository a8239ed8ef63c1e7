/**
 * The bare reads of the poll benchmark, in a process of their own: the polling process's peak RSS
 * is then its polls' alone, not the reference reads'. On each message `{ url, key, reader }` it
 * reads the audience once and answers its wall and CPU time: `client`, fetch and the client's reader
 * (json-array-stream.ts: split, JSON.parse of each entry), or `streamparser`, fetch and
 * @streamparser/json (the reader before decision 0082). No vcw logic in either.
 */
import { JSONParser } from "@streamparser/json";
import { readJsonArray } from "../src/api/json-array-stream.ts";

interface Ask {
  url: string;
  key: string;
  reader: "client" | "streamparser";
}

async function read({ url, key, reader }: Ask): Promise<number> {
  const response = await fetch(url, { method: "POST", headers: { "x-api-key": key } });
  let n = 0;
  if (reader === "client") {
    await readJsonArray(response.body!, {
      onItem: () => {
        n += 1;
      },
      maxItemBytes: 1_000_000,
    });
  } else {
    const parser = new JSONParser({ paths: ["$.*"], keepStack: false, stringBufferSize: 64 * 1024 });
    parser.onValue = () => {
      n += 1;
    };
    for await (const chunk of response.body!) parser.write(chunk);
  }
  if (n === 0) throw new Error("the bare read found no entry");
  return n;
}

process.on("message", async (ask: Ask) => {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await read(ask);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  process.send!({ ms, cpuMs: (cpu.user + cpu.system) / 1000 });
});
