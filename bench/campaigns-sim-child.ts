/**
 * The simulator of the campaigns benchmark, in its own process (its work is not the daemon's), its
 * requests watched: every request naming a campaign (`?id=`) is counted per campaign with its time,
 * so the benchmark sees which campaign was polled at which tick. Seeds its store directly
 * (N campaigns through the API would cost the simulator O(N²)): `calling` campaigns started now,
 * `waiting` ones scheduled a day later.
 */
import { DEFAULT_CALL_MODEL } from "../src/simulator/call-plan.ts";
import { DEMO_ASSISTANT, DEMO_DIALER } from "../src/simulator/demo-records.ts";
import { audienceOf } from "../src/simulator/handlers.ts";
import { startSimulator } from "../src/simulator/server.ts";
import type { StoredCampaign, StoredContact } from "../src/simulator/store.ts";

export type SimCommand =
  | { kind: "seed"; calling: number; waiting: number; contacts: number }
  | { kind: "requests" };

/** Per seeded campaign: its id, whether it calls now, and when (real epoch ms) its last call ends. */
export interface SeededCampaign {
  id: string;
  calling: boolean;
  finishesAt: number;
}

const [apiKey, timeScaleArg, pacingArg] = process.argv.slice(2);
const timeScale = Number(timeScaleArg ?? 10);
const callModel = { ...DEFAULT_CALL_MODEL, pacingMs: Number(pacingArg ?? 2_000) };
/** Request times per campaign id (ms since the simulator started), and requests naming no campaign. */
const times = new Map<string, number[]>();
let others = 0;
/** Requests per method and path: what each operation cost. */
const byPath = new Map<string, number>();
const origin = Date.now();

/** Told by the simulator of each request before it is handled (a proxy in front cost it as much again). */
function watch(method: string, url: string): void {
  const asked = new URL(url, "http://x");
  const id = asked.searchParams.get("id");
  const path = `${method} ${asked.pathname}`;
  byPath.set(path, (byPath.get(path) ?? 0) + 1);
  if (id) {
    const list = times.get(id) ?? [];
    list.push(Date.now() - origin);
    times.set(id, list);
  } else others += 1;
}

const sim = await startSimulator({
  apiKey: apiKey!,
  timeScale,
  demoRecords: true,
  callModel,
  onRequest: watch,
});
const url = sim.url;

function seed(calling: number, waiting: number, contacts: number): SeededCampaign[] {
  const { store, clock } = sim;
  const out: SeededCampaign[] = [];
  for (let c = 0; c < calling + waiting; c++) {
    const segment = store.add("segments", { id: store.newId("segments"), fields: { name: `bench ${c}` } });
    for (let i = 0; i < contacts; i++) {
      store.add<StoredContact>("contacts", {
        id: store.newId("contacts"),
        segmentId: segment.id,
        createdAt: clock.now() - 1,
        fields: {
          phone: `+1415${String(1_000_000 + c * contacts + i).padStart(7, "0")}`,
          first_name: `C${i}`,
          last_name: `Bench ${c}`,
        },
      });
    }
    const isCalling = c < calling;
    const campaign = store.add<StoredCampaign>("campaigns", {
      id: store.newId("campaigns"),
      ordinal: c + 1,
      assistantId: DEMO_ASSISTANT.id,
      segmentId: segment.id,
      dialerId: DEMO_DIALER.id,
      startAt: isCalling ? clock.now() : clock.now() + 86_400_000,
      fields: { campaigns_name: `bench ${c}` },
    });
    let finishesAt = Number.POSITIVE_INFINITY;
    if (isCalling) {
      store.start(campaign, audienceOf({ store, seed: 1, callModel }, campaign));
      const lastEnd = Math.max(...campaign.audience!.map((m) => m.plan.endAt));
      finishesAt = Date.now() + (lastEnd - clock.now()) / timeScale;
    }
    out.push({ id: campaign.id, calling: isCalling, finishesAt });
  }
  return out;
}

process.on("message", (command: SimCommand) => {
  if (command.kind === "seed") {
    process.send!({ campaigns: seed(command.calling, command.waiting, command.contacts) });
  } else {
    process.send!({ origin, times: Object.fromEntries(times), others, byPath: Object.fromEntries(byPath) });
  }
});
process.send!({ url });
