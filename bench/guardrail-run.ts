/**
 * One run of `guardrail`, in a process of its own: the code tree named by argv[2] (its dist) judges
 * a job of N finished 12-contact campaigns, look after look, each look after one campaign's poll
 * changed one entry (a late opt-out); it sends over IPC the CPU and the Redis commands of the
 * guardrail's looks alone (the seeding and the polls' writes are not counted).
 * argv: root, campaigns, looks, Redis URL, prefix.
 */

import { experimentJob, optOutLater, seedExperimentCampaign } from "../test/support/experiment-seed.ts";
import { loadFromTree } from "./base-tree.ts";

const [root = "", campaignsArg, looksArg, redisUrl = "", prefix] = process.argv.slice(2);
const load = <T>(file: string) => loadFromTree<T>(root, file);
type Fn = (...args: unknown[]) => never;
const { redisKeys } = await load<{ redisKeys: Fn }>("lib/redis-keys.js");
const { createCampaignStore } = await load<{ createCampaignStore: Fn }>("pipeline/stores/campaign-store.js");
const { createExperimentStore } = await load<{ createExperimentStore: Fn }>(
  "pipeline/stores/experiment-store.js",
);
const { guardExperiment } = await load<{ guardExperiment: Fn }>("queue/experiment-guard.js");
const { JobDefinition } = await load<{ JobDefinition: { parse: Fn } }>("config/job-definition.js");
const { Redis } = await import("ioredis");

const campaigns = Number(campaignsArg);
const looks = Number(looksArg);
const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
const keys = redisKeys(prefix);
const store = createCampaignStore(redis, keys);
const def = JobDefinition.parse(experimentJob("exp"));
const at = Date.now() - 3_600_000;
const infos: Awaited<ReturnType<typeof seedExperimentCampaign>>[] = [];
for (let i = 0; i < campaigns; i++) infos.push(await seedExperimentCampaign(store, "exp", i, 12, at));
const quiet = () => {};
const d = {
  store,
  experiments: createExperimentStore(redis, keys),
  logger: { info: quiet, warn: quiet },
  now: Date.now,
};
const commands = async () => Number(/total_commands_processed:(\d+)/.exec(await redis.info("stats"))![1]);
/** One look after one campaign's poll: its CPU (ms) and Redis commands. */
const look = async (n: number) => {
  await optOutLater(store, infos[n % campaigns]!, n % 12, n + 2, at + n);
  const c0 = await commands();
  const cpu0 = process.cpuUsage();
  await guardExperiment(d, def, true);
  const cpu = process.cpuUsage(cpu0);
  // Less the second INFO itself.
  return { cpuMs: (cpu.user + cpu.system) / 1000, commands: (await commands()) - c0 - 1 };
};
const first = await look(0);
await look(1); // warm
let cpuMs = 0;
let sent = 0;
for (let n = 2; n < looks + 2; n++) {
  const r = await look(n);
  cpuMs += r.cpuMs;
  sent += r.commands;
}
await redis.quit();
process.send!({ cpuMsPerLook: cpuMs / looks, commandsPerLook: sent / looks, firstLook: first, looks });
