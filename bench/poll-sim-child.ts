/**
 * The simulator of the poll benchmark, in its own process so its work (building 100,000 audience
 * entries per request) doesn't count as ours. Commands come over IPC: seed contacts, move time.
 */
import { DEMO_ASSISTANT, DEMO_DIALER } from "../src/simulator/demo-records.ts";
import { startSimulator } from "../src/simulator/server.ts";
import type { StoredContact } from "../src/simulator/store.ts";

type Command = { kind: "seed"; segment: string; entries: number } | { kind: "advance"; ms: number };

const sim = await startSimulator({ apiKey: process.argv[2]!, timeScale: 1e-9, demoRecords: true });
process.on("message", (command: Command) => {
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
  } else sim.clock.advance(command.ms);
  process.send!({ done: true, assistant: DEMO_ASSISTANT.id, dialer: DEMO_DIALER.id });
});
process.send!({ url: sim.url });
