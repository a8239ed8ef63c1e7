/**
 * One run of `poll-unchanged`, in a process of its own: the code tree named by argv[2] (its dist)
 * polls N registered campaigns of a few contacts whose audiences do not change, round after round,
 * and sends over IPC the CPU time of this process per poll (the audience server and Redis run in
 * others), and the floor: the same requests and meta reads without vcw's code. argv: root, campaigns,
 * rounds, audiences URL, Redis URL, prefix.
 */
import { loadFromTree } from "./base-tree.ts";
import { benchCampaignInfo, statusClassesOf } from "./poll-fixture.ts";

const [root, campaignsArg, roundsArg, audiencesUrl, redisUrl, prefix] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
];
const load = <T>(file: string) => loadFromTree<T>(root, file);
/** A module of a tree loaded by path: untyped, called as the benchmark knows it is. */
interface Loose {
  (...args: unknown[]): Loose;
  [key: string]: Loose;
}
type M = Record<string, Loose>;
const api = await load<M>("api/index.js");
const statuses = (
  await load<{ AUDIENCE_STATUSES: Record<string, string[]> }>("api/schemas/audience-status.js")
).AUDIENCE_STATUSES;
const { redisKeys } = await load<M>("lib/redis-keys.js");
const { createCampaignStore } = await load<M>("pipeline/stores/campaign-store.js");
const { pollCampaign } = await load<M>("pipeline/results/poll-campaign.js");
const { createSuppressionList } = await load<M>("pipeline/stores/suppression.js");
const { Redis } = await import("ioredis");

const campaigns = Number(campaignsArg);
const rounds = Number(roundsArg);
const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
const call = (f: Loose, ...args: unknown[]) => f(...args);
const keys = call(redisKeys!, prefix);
const store = call(createCampaignStore!, redis, keys);
const client = call(api.createClient!, { baseUrl: audiencesUrl, apiKey: "bench-key-0123456789" });
const ids = Array.from({ length: campaigns }, (_, i) => `c${i}`);
for (const id of ids) await store.register!(benchCampaignInfo(id, "s", 12), Date.now());
const options = {
  client,
  redis,
  store,
  suppression: call(createSuppressionList!, redis, keys),
  classes: statusClassesOf(statuses as never),
  stuckAfterMs: 86_400_000,
  keys,
};
const pollAll = async () => {
  for (const id of ids) {
    const outcome = await call(pollCampaign!, id, options);
    if (outcome!.skipped) throw new Error(`poll of ${id} skipped: ${outcome.skipped}`);
  }
};
await pollAll(); // the first poll stores every entry; the rest find nothing changed
await pollAll(); // warm
const c0 = process.cpuUsage();
const t0 = performance.now();
for (let r = 0; r < rounds; r++) await pollAll();
const cpu = process.cpuUsage(c0);
const polls = rounds * campaigns;
// The floor of an unchanged poll in this process: the same request with fetch, its body read whole
// and not parsed, and one read of the campaign's meta; no vcw code. What the transport costs here.
const bareAll = async () => {
  for (const id of ids) {
    const r = await fetch(`${audiencesUrl}/campaign/audiences?id=${encodeURIComponent(id)}`, {
      method: "POST",
      headers: { "x-api-key": "bench-key-0123456789" },
    });
    await r.arrayBuffer();
    await redis.hgetall(String(keys.campaign!.meta!(id)));
  }
};
await bareAll(); // warm
const b0 = process.cpuUsage();
for (let r = 0; r < rounds; r++) await bareAll();
const bare = process.cpuUsage(b0);
await redis.quit();
process.send!({
  cpuMsPerPoll: (cpu.user + cpu.system) / 1000 / polls,
  wallMsPerPoll: (performance.now() - t0) / polls,
  polls,
  floorCpuMsPerPoll: (bare.user + bare.system) / 1000 / polls,
});
