/**
 * `npm run bench -- suppress [--numbers N] [--quick]`: `vcw suppress import` of a do-not-call
 * extract of 10,000,000 numbers (1,000,000 with --quick) in the FTC's flat format (area code,
 * number; sorted, as the FTC's files are): NANP numbers clustered in a few area codes, each with
 * most exchanges in use and 5-35% of an exchange's numbers registered. The import runs as its own
 * process (the compiled CLI) against a private redis-server. Reported: wall time, numbers/s, the
 * importing process' peak RSS, Redis used_memory per number (against ~70 bytes for a plain set,
 * measured here on 200,000 of them), and the cost of a lookup of 1,000 numbers (`which()`) and of
 * one number (as an import checks each row).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { startRedisServer } from "../src/daemon/redis-server.ts";
import { redisKeys } from "../src/lib/redis-keys.ts";
import { createDoNotCallLists } from "../src/pipeline/stores/dnc/do-not-call-lists.ts";
import { createRandom as random } from "../src/simulator/prng.ts";
import { fmt, mb, median, table } from "./lib.ts";

const PREFIX = "vcw-bench";
/** Florida's area codes and a few more: a state's subscription, as telemarketers buy them. */
const AREAS = [239, 305, 321, 352, 386, 407, 561, 727, 754, 772, 786, 813, 850, 863, 904, 941, 954];
const LOOKUPS = 200;

/** Writes (once, kept under bench/.data/) an extract of exactly `n` numbers. */
async function extract(n: number): Promise<string> {
  const dir = resolve("bench/.data");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `dnc-${n}.txt`);
  if (existsSync(path)) return path;
  const out = createWriteStream(`${path}.tmp`);
  const next = random(20);
  let written = 0;
  let chunk: string[] = [];
  const flush = async () => {
    if (!out.write(chunk.join(""))) await once(out, "drain");
    chunk = [];
  };
  for (let a = 0; written < n; a += 1) {
    const area = AREAS[a % AREAS.length]! + 100 * Math.floor(a / AREAS.length); // past the list: more codes
    for (let exchange = 200; exchange <= 999 && written < n; exchange += 1) {
      if (next() < 0.3) continue; // not in use
      const density = 0.05 + 0.3 * next();
      for (let line = 0; line < 10_000 && written < n; line += 1) {
        if (next() >= density) continue;
        chunk.push(`${area},${exchange}${String(line).padStart(4, "0")}\n`);
        written += 1;
        if (chunk.length >= 10_000) await flush();
      }
    }
  }
  await flush();
  out.end();
  await once(out, "finish");
  renameSync(`${path}.tmp`, path);
  return path;
}

const usedMemory = async (redis: Redis) => Number(/used_memory:(\d+)/.exec(await redis.info("memory"))![1]);

/** The peak RSS the kernel recorded for `pid` (VmHWM), read while it runs. */
function peakRss(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** `vcw ARGS` in a process of its own: its wall time and peak RSS. */
async function vcwIn(args: string[], redisUrl: string) {
  const started = performance.now();
  const child = spawn(process.execPath, [resolve("dist/src/cli/bin.js"), ...args], {
    env: { PATH: process.env.PATH ?? "", REDIS_URL: redisUrl, VCW_PREFIX: PREFIX },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => {
    output += String(d);
  });
  child.stderr.on("data", (d) => {
    output += String(d);
  });
  let rss = 0;
  const timer = setInterval(() => {
    rss = Math.max(rss, peakRss(child.pid!));
  }, 100);
  const [code] = (await once(child, "exit")) as [number];
  clearInterval(timer);
  if (code !== 0) throw new Error(`vcw ${args.join(" ")} failed (${code}): ${output}`);
  return { ms: performance.now() - started, rss, output };
}

/** Microseconds per which() of 1,000 numbers of the same area codes (a fifth or so listed). */
async function lookupCost(redis: Redis) {
  const lists = createDoNotCallLists(redis, redisKeys(PREFIX));
  const next = random(7);
  const batch = () =>
    Array.from(
      { length: 1_000 },
      () =>
        `+1${AREAS[Math.floor(next() * 3)]}${200 + Math.floor(next() * 800)}${String(Math.floor(next() * 10_000)).padStart(4, "0")}`,
    );
  const times: number[] = [];
  let listed = 0;
  for (let i = 0; i < LOOKUPS; i += 1) {
    const phones = batch();
    const t0 = performance.now();
    listed += (await lists.which(phones)).size;
    times.push((performance.now() - t0) * 1000);
  }
  // One number at a time, as the import checks each row.
  const single: number[] = [];
  for (const phone of batch()) {
    const t0 = performance.now();
    await lists.which([phone]);
    single.push((performance.now() - t0) * 1000);
  }
  // The opt-out list's check of one number beside it (SMISMEMBER on a set): the per-row baseline.
  const optOut: number[] = [];
  for (const phone of batch()) {
    const t0 = performance.now();
    await redis.smismember(redisKeys(PREFIX).suppressed, phone);
    optOut.push((performance.now() - t0) * 1000);
  }
  return {
    us: median(times),
    usOne: median(single),
    usOptOut: median(optOut),
    listedShare: listed / (LOOKUPS * 1_000),
  };
}

/** Bytes a number takes in a plain Redis set (the opt-out list's structure), for comparison. */
async function plainSetBytes(redis: Redis): Promise<number> {
  const before = await usedMemory(redis);
  const key = `${PREFIX}:plain-set`;
  for (let i = 0; i < 200; i += 1)
    await redis.sadd(
      key,
      ...Array.from({ length: 1_000 }, (_, j) => `+1305${String(2_000_000 + i * 1_000 + j)}`),
    );
  const bytes = (await usedMemory(redis)) - before;
  await redis.del(key);
  return bytes / 200_000;
}

export async function run(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { numbers: { type: "string" }, quick: { type: "boolean" } },
    strict: false,
  });
  const n = Number(values.numbers ?? (values.quick ? 1_000_000 : 10_000_000));
  const file = await extract(n);
  const server = await startRedisServer();
  const redis = new Redis(server.url, { maxRetriesPerRequest: null });
  try {
    const before = await usedMemory(redis);
    const imported = await vcwIn(["suppress", "import", file, "--source", "ftc"], server.url);
    const after = await usedMemory(redis);
    const [list] = await createDoNotCallLists(redis, redisKeys(PREFIX)).lists();
    if (list?.numbers !== n) throw new Error(`loaded ${list?.numbers} numbers of ${n}`);
    const lookup = await lookupCost(redis);
    // The CLI's own floor: a command that reads a few keys.
    const floor = await vcwIn(["suppress", "list", "--sources"], server.url);
    const plain = await plainSetBytes(redis);
    const perNumber = (after - before) / n;
    table([
      {
        numbers: fmt(n),
        blocks: fmt(list.blocks),
        "import s": fmt(imported.ms / 1000, 1),
        "numbers/s": fmt(n / (imported.ms / 1000)),
        "peak RSS": mb(imported.rss),
        "CLI floor RSS": mb(floor.rss),
        "Redis MB": fmt((after - before) / 1024 / 1024, 1),
        "bytes/number": fmt(perNumber, 2),
        "plain set bytes/number": fmt(plain, 1),
        "which(1,000) µs": fmt(lookup.us),
        "µs/number": fmt(lookup.us / 1000, 2),
        "which(1) µs": fmt(lookup.usOne),
        "opt-out check(1) µs": fmt(lookup.usOptOut),
        "listed share": fmt(lookup.listedShare, 2),
      },
    ]);
    console.log(
      `Redis: ${fmt(perNumber, 2)} bytes a number, ${fmt(plain / perNumber, 1)}x less than a plain set (${fmt(plain, 1)})`,
    );
  } finally {
    await redis.quit();
    await server.stop();
  }
}
