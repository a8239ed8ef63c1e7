/**
 * The simulator of the poll benchmark, in its own process so its work doesn't count as the polling
 * process's. Commands come over IPC: seed contacts, move time, render a campaign's audience.
 *
 * The audience is rendered once per state (after each move of time) and served as bytes from a
 * server of its own: the simulator would build and serialize a million entries per request, a few
 * seconds that both the bare read and every poll would wait for, hiding what the poll costs.
 */
import { createServer } from "node:http";
import { audienceEntryAt } from "../src/simulator/call-plan.ts";
import { DEMO_ASSISTANT, DEMO_DIALER } from "../src/simulator/demo-records.ts";
import { startSimulator } from "../src/simulator/server.ts";
import type { StoredCampaign, StoredContact } from "../src/simulator/store.ts";

type Command =
  | { kind: "seed"; segment: string; entries: number }
  | { kind: "advance"; ms: number }
  | { kind: "render"; campaign: string }
  | { kind: "cpu" };

const sim = await startSimulator({ apiKey: process.argv[2]!, timeScale: 1e-9, demoRecords: true });
let body: Buffer[] = [];

const audiences = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json" });
    let i = 0;
    // Honours backpressure: the client reads at its own pace, as from a real service.
    const pump = () => {
      while (i < body.length) if (!res.write(body[i++]!)) return void res.once("drain", pump);
      res.end();
    };
    pump();
  });
});
await new Promise<void>((resolve) => audiences.listen(0, "127.0.0.1", resolve));
const audiencesUrl = `http://127.0.0.1:${(audiences.address() as { port: number }).port}/api/v1`;

/** The campaign's audience as the simulator would answer it now, in 1 MB parts. */
function render(id: string): Buffer[] {
  const campaign = sim.store.get<StoredCampaign>("campaigns", id);
  const now = sim.clock.now();
  const parts: Buffer[] = [];
  let text = "[";
  (campaign.audience ?? []).forEach(({ contact, plan }, index) => {
    const url = `https://recordings.simulator.invalid/${campaign.id}/${index}.mp3`;
    text += `${index > 0 ? "," : ""}${JSON.stringify({ id: `${campaign.id}-${index}`, ...audienceEntryAt(plan, contact, now, url) })}`;
    if (text.length > 1_000_000) {
      parts.push(Buffer.from(text));
      text = "";
    }
  });
  parts.push(Buffer.from(`${text}]`));
  return parts;
}

process.on("message", (command: Command) => {
  let bytes = 0;
  if (command.kind === "seed") {
    for (let i = 0; i < command.entries; i++) {
      sim.store.add<StoredContact>("contacts", {
        id: sim.store.newId("contacts"),
        segmentId: command.segment,
        createdAt: sim.clock.now(),
        fields: {
          phone: `+1415${String(2_000_000 + i).padStart(7, "0")}`,
          first_name: `C${i}`,
          last_name: "Bench",
        },
      });
    }
  } else if (command.kind === "advance") sim.clock.advance(command.ms);
  else if (command.kind === "render") {
    body = render(command.campaign);
    bytes = body.reduce((n, part) => n + part.length, 0);
    // Collected now, not while the polling process measures.
    (globalThis as { gc?: () => void }).gc?.();
  }
  // This process's CPU so far (ms): the parent reads what answering its requests cost the simulator.
  const cpu = process.cpuUsage();
  const cpuMs = (cpu.user + cpu.system) / 1000;
  process.send!({ done: true, assistant: DEMO_ASSISTANT.id, dialer: DEMO_DIALER.id, bytes, cpuMs });
});
process.send!({ url: sim.url, audiencesUrl });
