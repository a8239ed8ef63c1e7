/**
 * One run of the poll benchmark, in a process of its own so that its peak RSS is the polling
 * process's alone (the simulator runs in another child, Redis in its own server). Polls one campaign
 * of `entries` audience entries: first, unchanged, a few changes; beside them the bare streaming
 * read of the same body with the same parser and no vcw logic. Sends its measures over IPC.
 */
import os from "node:os";
import { JSONParser } from "@streamparser/json";
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
  msFirst: number;
  msUnchanged: number;
  /** An unchanged poll by a process that holds no index of the campaign (another replica polled last). */
  msUnchangedCold: number;
  msFewChanges: number;
  /** The bare read of the bodies the few-changes polls read (each read just before its poll). */
  msBareFewChanges: number;
  fewChanged: number;
  /** CPU time of the polling process alone: steadier than wall time on a shared machine. */
  cpuMs: { bare: number; unchanged: number; bareFewChanges: number; fewChanges: number };
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
/** The bare read: fetch, and the same parser with the same options over the body; nothing else. */
const bare = () =>
  timed(async () => {
    const response = await fetch(`${audiencesUrl}/campaign/audiences?id=${campaign}`, {
      method: "POST",
      headers: { "x-api-key": KEY },
    });
    const parser = new JSONParser({ paths: ["$.*"], keepStack: false, stringBufferSize: 64 * 1024 });
    let n = 0;
    parser.onValue = () => {
      n += 1;
    };
    for await (const chunk of response.body!) parser.write(chunk);
    if (n === 0) throw new Error("the bare read found no entry");
  });
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// The machine is shared: bare reads and polls alternate, and medians are compared.
await bare(); // warm up
const first = await measure();
const bares: { ms: number; cpuMs: number }[] = [];
const none: Awaited<ReturnType<typeof measure>>[] = [];
for (let i = 0; i < 5; i++) {
  bares.push(await bare());
  none.push(await measure());
}
forgetFingerprintIndexes();
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
  msFirst: Math.round(first.ms),
  msUnchanged: Math.round(median(none.map((r) => r.ms))),
  msUnchangedCold: Math.round(cold.ms),
  msFewChanges: Math.round(median(few.map((r) => r.ms))),
  msBareFewChanges: Math.round(median(fewBares.map((b) => b.ms))),
  fewChanged: median(few.map((r) => r.changed)),
  cpuMs: {
    bare: Math.round(median(bares.map((b) => b.cpuMs))),
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
await redis.quit();
await server.stop();
process.send!(result);
