import { createServer } from "node:http";

/** A job whose files each make a campaign (polled every second), its summaries to `sinks`. */
export function campaignJobYaml(o: {
  name: string;
  inbox: string;
  segment: string;
  assistant: string;
  dialer: string;
  start: string[];
  sinks: string[];
}): string {
  return [
    `name: ${o.name}`,
    `inbox: ${o.inbox}`,
    "segment:",
    `  name: ${o.segment}`,
    "contacts:",
    "  country: US",
    "campaign:",
    "  assistant:",
    `    name: ${o.assistant}`,
    "  dialer:",
    `    id: ${o.dialer}`,
    ...o.start,
    "polling:",
    '  schedule: "* * * * * *"',
    ...(o.sinks.length ? ["summaries:", `  sinks: [${o.sinks.join(", ")}]`] : []),
    "",
  ].join("\n");
}

/** A webhook receiver on a free port that answers 500 until `state.up`, then counts what it takes. */
export async function startHook() {
  const state = { up: false, received: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (state.up) state.received += 1;
      res.writeHead(state.up ? 200 : 500).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    state,
    url: `http://127.0.0.1:${port}/hook`,
    sinksYaml: `sinks:\n  hook:\n    type: webhook\n    url: http://127.0.0.1:${port}/hook\n    timeoutMs: 1000\n`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
