/**
 * Poll-and-diff of one campaign with 100,000 audience entries, against the simulator in a child
 * process (time frozen, then moved by hand) and a private Redis: time per poll with no change and with a
 * few, Redis commands per poll, peak RSS. Beside it, the bare audiences request (HTTP + JSON +
 * schema) as the baseline every poll pays.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { createClient } from "../src/api/index.ts";
import { AUDIENCE_STATUSES } from "../src/api/schemas/audience-status.ts";
import { startRedisServer } from "../src/daemon/redis-server.ts";
import { redisKeys } from "../src/lib/redis-keys.ts";
import { createSuppressionList } from "../src/pipeline/campaign/suppression.ts";
import { createCampaignStore } from "../src/pipeline/results/campaign-store.ts";
import { pollCampaign } from "../src/pipeline/results/poll-campaign.ts";
import { DEMO_ASSISTANT, DEMO_DIALER } from "../src/simulator/demo-records.ts";
import { fmt, mb, table } from "./lib.ts";

const KEY = "bench-key-0123456789";
const ENTRIES = Number(process.env.BENCH_POLL_ENTRIES ?? 100_000);

export async function run(): Promise<void> {
  // A private Redis, so the command count is ours alone.
  const server = await startRedisServer();
  const redis = new Redis(server.url, { maxRetriesPerRequest: null });
  const child = fork(fileURLToPath(new URL("./poll-sim-child.js", import.meta.url)), [KEY], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const reply = () => new Promise<Record<string, string>>((resolve) => child.once("message", resolve));
  const ask = (command: object) => {
    const answer = reply();
    child.send(command);
    return answer;
  };
  const { url } = await reply();
  const client = createClient({ baseUrl: url!, apiKey: KEY, timeoutMs: 120_000 });
  const segment = (await client.segments.create({ name: "bench-poll" })).id!;
  await ask({ kind: "seed", segment, entries: ENTRIES });
  const campaign = (
    await client.campaigns.create({
      campaigns_name: "bench-poll",
      assistant_id: DEMO_ASSISTANT.id,
      contacts_id: segment,
      dialer_id: DEMO_DIALER.id,
    })
  ).id!;
  await ask({ kind: "advance", ms: 10 * 60_000 }); // 10 simulated minutes: about 200 calls under way or done

  const store = createCampaignStore(redis, redisKeys("bench"));
  await store.register(
    {
      id: campaign,
      name: "bench-poll",
      job: "bench",
      file: "bench.csv",
      sha256: "0".repeat(64),
      gen: 1,
      segmentId: segment,
      scheduledAt: new Date().toISOString(),
      state: "active",
      attempt: 0,
      followUps: [],
    },
    Date.now(),
  );
  const options = {
    client,
    redis,
    store,
    suppression: createSuppressionList(redis, redisKeys("bench")),
    classes: {
      final: [...AUDIENCE_STATUSES.done, ...AUDIENCE_STATUSES.retry, ...AUDIENCE_STATUSES.optedOut],
      retry: [...AUDIENCE_STATUSES.retry],
      optedOut: [...AUDIENCE_STATUSES.optedOut],
      pending: [...AUDIENCE_STATUSES.pending],
      unknownIs: "final" as const,
    },
    stuckAfterMs: 86_400_000,
    keys: redisKeys("bench"),
  };
  const commands = async () => {
    const info = await redis.info("stats");
    return Number(/total_commands_processed:(\d+)/.exec(info)![1]);
  };
  const measure = async (label: string, before?: () => Promise<unknown>) => {
    await before?.();
    const c0 = await commands();
    const t0 = performance.now();
    const outcome = await pollCampaign(campaign, options);
    const ms = performance.now() - t0;
    // The INFO call itself counts once.
    const used = (await commands()) - c0 - 1;
    return { label, ms, used, changed: outcome.changed };
  };
  const bare = async () => {
    const t0 = performance.now();
    await client.campaigns.audiences(campaign);
    return performance.now() - t0;
  };

  await bare(); // warm up
  const baseline = Math.min(await bare(), await bare(), await bare());
  const first = await measure("first poll (every entry new)");
  const none = [];
  for (let i = 0; i < 3; i++) none.push(await measure("no change"));
  const few = [];
  for (let i = 0; i < 3; i++)
    few.push(await measure("a few changes", () => ask({ kind: "advance", ms: 9_000 })));
  const peak = process.resourceUsage().maxRSS * 1024;

  child.kill();
  await redis.quit();
  await server.stop();

  type Row = Awaited<ReturnType<typeof measure>>;
  const median = (rows: Row[]) => [...rows].sort((a, b) => a.ms - b.ms)[1]!;
  const rows = [first, median(none), median(few)];
  console.log(
    `${fmt(ENTRIES)} audience entries; bare audiences request (HTTP + JSON + schema): ${fmt(baseline)} ms`,
  );
  table(
    rows.map((r) => ({
      poll: r.label,
      "entries changed": fmt(r.changed),
      "ms per poll": fmt(r.ms),
      "/ bare request": fmt(r.ms / baseline, 2),
      "/ 1.5 s goal": fmt(r.ms / 1500, 2),
      "redis commands": fmt(r.used),
    })),
  );
  console.log(`peak RSS of the polling process (the simulator runs in another): ${mb(peak)}`);
}
