/**
 * What the poll benchmarks share: the simulator's process serving one campaign's rendered audience
 * (poll-sim-child.ts), seeded with `entries` contacts, and the status classes a poll is given.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createClient } from "../src/api/index.ts";
import { DEMO_ASSISTANT, DEMO_DIALER } from "../src/simulator/demo-records.ts";

export const KEY = "bench-key-0123456789";

export async function startAudienceServer(entries: number, execArgv: string[] = []) {
  const child = fork(fileURLToPath(new URL("./poll-sim-child.js", import.meta.url)), [KEY], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    execArgv,
  });
  const reply = () => new Promise<Record<string, string>>((resolve) => child.once("message", resolve));
  const ask = (command: object) => {
    const answer = reply();
    child.send(command);
    return answer;
  };
  const { url, audiencesUrl } = await reply();
  const sim = createClient({ baseUrl: url!, apiKey: KEY, timeoutMs: 600_000 });
  const segment = (await sim.segments.create({ name: "bench-poll" })).id!;
  await ask({ kind: "seed", segment, entries });
  const campaign = (
    await sim.campaigns.create({
      campaigns_name: "bench-poll",
      assistant_id: DEMO_ASSISTANT.id,
      contacts_id: segment,
      dialer_id: DEMO_DIALER.id,
    })
  ).id!;
  /** Moves the simulator's time, and renders the campaign's audience as of then: its bytes. */
  const move = async (ms: number) => {
    await ask({ kind: "advance", ms });
    await sim.campaigns.list(); // the simulator starts due campaigns on a request
    return Number((await ask({ kind: "render", campaign })).bytes);
  };
  /**
   * The simulator's own CPU answering `requests` reads of the campaign's audience, one at a time as
   * the polls are made (ms a request): what the service spends on a poll, on this machine.
   */
  const serviceCpuMsPerRequest = async (requests: number) => {
    const cpu0 = Number((await ask({ kind: "cpu" })).cpuMs);
    for (let i = 0; i < requests; i++) await sim.campaigns.audiences(campaign);
    return (Number((await ask({ kind: "cpu" })).cpuMs) - cpu0) / requests;
  };
  return { child, sim, segment, campaign, move, serviceCpuMsPerRequest, audiencesUrl: audiencesUrl! };
}

/** The status classes of a poll, from the service's documented statuses. */
export function statusClassesOf(
  statuses: Record<"done" | "retry" | "optedOut" | "pending", readonly string[]>,
) {
  return {
    final: [...statuses.done, ...statuses.retry, ...statuses.optedOut],
    retry: [...statuses.retry],
    optedOut: [...statuses.optedOut],
    pending: [...statuses.pending],
    unknownIs: "final" as const,
  };
}

/** What the store is told of a benchmark's campaign when it is registered. */
export const benchCampaignInfo = (id: string, segmentId: string, audience: number) => ({
  id,
  name: id,
  job: "bench",
  file: "bench.csv",
  sha256: "0".repeat(64),
  gen: 1,
  segmentId,
  scheduledAt: new Date().toISOString(),
  state: "active" as const,
  attempt: 0,
  audience,
  followUps: [],
});
