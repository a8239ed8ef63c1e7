/**
 * One run of the poll benchmark, in a process of its own so that its peak RSS is the polling
 * process's alone (the simulator runs in another child, Redis in its own server). Polls one campaign
 * of `entries` audience entries: first, unchanged, a few changes; beside them, in a child of its
 * own (poll-bare-child.ts), the bare streaming read of the same body with the same reader and no vcw
 * logic, and with @streamparser/json, the reader before it (decision 0082). Sends its measures over IPC.
 */

import { fork } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { createClient } from "../src/api/index.ts";
import { AUDIENCE_STATUSES } from "../src/api/schemas/audience-status.ts";
import { startRedisServer } from "../src/daemon/redis-server.ts";
import { redisKeys } from "../src/lib/redis-keys.ts";
import { forgetFingerprintIndexes, pollCampaign } from "../src/pipeline/results/poll-campaign.ts";
import { createCampaignStore } from "../src/pipeline/stores/campaign-store.ts";
import { createSuppressionList } from "../src/pipeline/stores/suppression.ts";
import { benchCampaignInfo, KEY, startAudienceServer, statusClassesOf } from "./poll-fixture.ts";

export interface PollRun {
  entries: number;
  bodyMb: number;
  peakRssMb: number;
  msBare: number;
  /** The bare read with @streamparser/json, the reader the goal was first measured against. */
  msBareStreamparser: number;
  msFirst: number;
  msUnchanged: number;
  /** An unchanged poll by a process that holds no index of the campaign (another replica polled last). */
  msUnchangedCold: number;
  msFewChanges: number;
  /** The bare read of the bodies the few-changes polls read (each read just before its poll). */
  msBareFewChanges: number;
  fewChanged: number;
  /** CPU time of the polling process alone: steadier than wall time on a shared machine. */
  cpuMs: {
    bare: number;
    bareStreamparser: number;
    unchanged: number;
    bareFewChanges: number;
    fewChanges: number;
  };
  redisCommands: { first: number; unchanged: number; fewChanges: number };
  /** `os.loadavg()` at the end of the run: how busy the machine was. */
  loadAverage: number[];
}

const entries = Number(process.argv[2] ?? 100_000);
// A private Redis, so the command count is ours alone.
const server = await startRedisServer();
const redis = new Redis(server.url, { maxRetriesPerRequest: null });
const { child, segment, campaign, move, audiencesUrl } = await startAudienceServer(entries, [
  "--max-old-space-size=8192",
  "--expose-gc",
]);
// Polls read the rendered audience; a long timeout, since it covers the whole body.
const client = createClient({ baseUrl: audiencesUrl, apiKey: KEY, timeoutMs: 600_000 });
// 10 simulated minutes: about 200 calls under way or done.
const bytes = await move(10 * 60_000);

const keys = redisKeys("bench");
const store = createCampaignStore(redis, keys);
await store.register({ ...benchCampaignInfo(campaign, segment, entries), name: "bench-poll" }, Date.now());
const options = {
  client,
  redis,
  store,
  suppression: createSuppressionList(redis, keys),
  classes: statusClassesOf(AUDIENCE_STATUSES),
  stuckAfterMs: 86_400_000,
  keys,
};
const commands = async () => Number(/total_commands_processed:(\d+)/.exec(await redis.info("stats"))![1]);
/** Wall and CPU time of the polling process (CPU: this process only, not Redis nor the simulator). */
const timed = async <T>(work: () => Promise<T>) => {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await work();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, value };
};
const measure = async () => {
  const c0 = await commands();
  const t = await timed(() => pollCampaign(campaign, options));
  // The INFO call itself counts once.
  return { ...t, used: (await commands()) - c0 - 1, changed: t.value.changed };
};
// The bare reads run in a child of their own (poll-bare-child.ts): this process's peak RSS is its polls'.
const bareChild = fork(fileURLToPath(new URL("./poll-bare-child.js", import.meta.url)), [], {
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
const bareRead = (reader: "client" | "streamparser") =>
  new Promise<{ ms: number; cpuMs: number }>((resolve) => {
    bareChild.once("message", (m) => resolve(m as { ms: number; cpuMs: number }));
    bareChild.send({ url: `${audiencesUrl}/campaign/audiences?id=${campaign}`, key: KEY, reader });
  });
/** The bare read: fetch, and the client's reader over the body, each entry parsed; nothing else. */
const bare = () => bareRead("client");
/** The same with @streamparser/json, the reader before (the goal's first measure was against it). */
const bareStreamparser = () => bareRead("streamparser");
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// The machine is shared: bare reads and polls alternate, and medians are compared.
await bare(); // warm up
const first = await measure();
const bares: { ms: number; cpuMs: number }[] = [];
const streamparserBares: { ms: number; cpuMs: number }[] = [];
const none: Awaited<ReturnType<typeof measure>>[] = [];
for (let i = 0; i < 5; i++) {
  bares.push(await bare());
  none.push(await measure());
  streamparserBares.push(await bareStreamparser());
}
forgetFingerprintIndexes();
// A process that never held the index: what the forgotten one held is collected first (fork's --expose-gc).
(globalThis as { gc?: () => void }).gc?.();
const cold = await measure();
const fewBares: { ms: number; cpuMs: number }[] = [];
const few: Awaited<ReturnType<typeof measure>>[] = [];
for (let i = 0; i < 5; i++) {
  await move(9_000);
  fewBares.push(await bare()); // the same body as the poll that follows
  few.push(await measure());
}
const msBare = median(bares.map((b) => b.ms));
const result: PollRun = {
  entries,
  bodyMb: Math.round(bytes / 1e5) / 10,
  peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  msBare: Math.round(msBare),
  msBareStreamparser: Math.round(median(streamparserBares.map((b) => b.ms))),
  msFirst: Math.round(first.ms),
  msUnchanged: Math.round(median(none.map((r) => r.ms))),
  msUnchangedCold: Math.round(cold.ms),
  msFewChanges: Math.round(median(few.map((r) => r.ms))),
  msBareFewChanges: Math.round(median(fewBares.map((b) => b.ms))),
  fewChanged: median(few.map((r) => r.changed)),
  cpuMs: {
    bare: Math.round(median(bares.map((b) => b.cpuMs))),
    bareStreamparser: Math.round(median(streamparserBares.map((b) => b.cpuMs))),
    unchanged: Math.round(median(none.map((r) => r.cpuMs))),
    bareFewChanges: Math.round(median(fewBares.map((b) => b.cpuMs))),
    fewChanges: Math.round(median(few.map((r) => r.cpuMs))),
  },
  redisCommands: {
    first: first.used,
    unchanged: median(none.map((r) => r.used)),
    fewChanges: median(few.map((r) => r.used)),
  },
  loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
};
child.kill();
bareChild.kill();
await redis.quit();
await server.stop();
process.send!(result);
