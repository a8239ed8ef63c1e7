/**
 * `npm run bench -- traces [--jobs N] [--spans N]`: the cost of traces, off and on, each in a
 * process of its own (traces are process-wide). Off is what every run pays; on runs the SDK with
 * an exporter that drops what it gets (each span masked and handed over as it ends), so the cost
 * measured is vcw's and the SDK's (spans, context, BullMQ propagation, masking), not a
 * collector's. Needs Redis (REDIS_URL).
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { deleteMatching } from "../src/lib/delete-keys.ts";
import { redisKeys } from "../src/lib/redis-keys.ts";
import { queueTelemetry } from "../src/telemetry/queue-telemetry.ts";
import { inSpan } from "../src/telemetry/span.ts";
import { startTracing, stopTracing } from "../src/telemetry/tracing.ts";
import { fmt, table, timeIt } from "./lib.ts";

interface Measure {
  mode: "off" | "on";
  spanUs: number;
  jobsPerSec: number;
  cpuMs: number;
}

const option = (argv: string[], name: string, fallback: number) => {
  const i = argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(argv[i + 1]);
};

export async function run(argv: string[]): Promise<void> {
  const self = fileURLToPath(import.meta.url);
  const runner = self.endsWith(".ts")
    ? [fileURLToPath(new URL("../bin/run-ts.js", import.meta.url)), self]
    : [self];
  const results: Measure[] = [];
  for (const mode of ["off", "on", "off", "on"] as const) {
    const { stdout } = await promisify(execFile)(process.execPath, [...runner, "--child", mode, ...argv], {
      env: process.env,
      maxBuffer: 1 << 20,
    });
    results.push(JSON.parse(stdout.trim().split("\n").at(-1)!) as Measure);
  }
  const best = (mode: Measure["mode"]) => {
    const of = results.filter((r) => r.mode === mode);
    return {
      spanUs: Math.min(...of.map((r) => r.spanUs)),
      jobsPerSec: Math.max(...of.map((r) => r.jobsPerSec)),
      cpuMs: Math.min(...of.map((r) => r.cpuMs)),
    };
  };
  const off = best("off");
  const on = best("on");
  table([
    {
      mode: "off",
      "µs per inSpan": fmt(off.spanUs, 3),
      "jobs/s (add+process)": fmt(off.jobsPerSec),
      "CPU ms": fmt(off.cpuMs),
    },
    {
      mode: "on",
      "µs per inSpan": fmt(on.spanUs, 3),
      "jobs/s (add+process)": fmt(on.jobsPerSec),
      "CPU ms": fmt(on.cpuMs),
    },
  ]);
  console.log(
    `on/off in one run: jobs/s ${fmt(on.jobsPerSec / off.jobsPerSec, 2)}x, CPU ${fmt(on.cpuMs / off.cpuMs, 2)}x`,
  );
}

/** One mode in this process: `spans` calls of inSpan, then `jobs` jobs through a BullMQ queue. */
async function child(mode: Measure["mode"], argv: string[]): Promise<void> {
  if (mode === "on") {
    const dropping = {
      export: (_: unknown, done: (r: { code: 0 }) => void) => done({ code: 0 }),
      shutdown: async () => {},
    };
    await startTracing({ exporter: dropping, version: "bench" });
  }
  const spans = option(argv, "spans", 100_000);
  const jobs = option(argv, "jobs", 2_000);
  const cpu = process.cpuUsage();
  const spanMs = await timeIt(async () => {
    for (let i = 0; i < spans; i++) await inSpan("bench", { attributes: { i } }, async () => i);
  });
  const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", { maxRetriesPerRequest: null });
  const keys = redisKeys(`vcw-bench-traces-${randomBytes(4).toString("hex")}`);
  const prefix = keys.queue("bench");
  const queue = new Queue("bench", { connection: redis, prefix, ...queueTelemetry() });
  const workerRedis = redis.duplicate();
  let done = 0;
  let finished: () => void = () => {};
  const all = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const worker = new Worker("bench", async (job) => inSpan("work", {}, async () => job.data.i), {
    connection: redis.duplicate(),
    prefix,
    concurrency: 16,
    ...queueTelemetry(),
  });
  worker.on("completed", () => {
    if (++done === jobs) finished();
  });
  const jobMs = await timeIt(async () => {
    await inSpan("producer", {}, async () => {
      for (let i = 0; i < jobs; i += 100)
        await queue.addBulk(
          Array.from({ length: Math.min(100, jobs - i) }, (_, k) => ({ name: "j", data: { i: i + k } })),
        );
    });
    await all;
  });
  const used = process.cpuUsage(cpu);
  await worker.close();
  await queue.close();
  await deleteMatching(redis, keys.everything);
  await workerRedis.quit();
  await redis.quit();
  await stopTracing();
  const result: Measure = {
    mode,
    spanUs: (spanMs * 1000) / spans,
    jobsPerSec: jobs / (jobMs / 1000),
    cpuMs: (used.user + used.system) / 1000,
  };
  console.log(JSON.stringify(result));
  // A connection BullMQ keeps (its blocking client) must not hold the measuring process.
  process.exit(0);
}

const at = process.argv.indexOf("--child");
if (at !== -1) await child(process.argv[at + 1] as Measure["mode"], process.argv.slice(at + 2));
