/**
 * `npm run bench -- suppress [--numbers N] [--quick] [--distribution clustered|random] [--base DIR]`:
 * `vcw suppress import` of a do-not-call extract of 10,000,000 numbers (1,000,000 with --quick) in
 * the FTC's flat format (area code, number). `clustered` (default): NANP numbers in a few area
 * codes, each with most exchanges in use and 5-35% of an exchange's numbers registered, sorted as
 * the FTC's files are. `random`: numbers drawn uniformly over the US numbering plan (area codes and
 * exchanges 200-999), in no order: a company's own list, sparse. The import runs as its own process
 * (the compiled CLI) against a private redis-server, for this tree and, with `--base DIR`, the
 * compiled tree in DIR after it (each on a fresh Redis): ratios are ours / base. Reported: wall
 * time, numbers/s, the importing process' peak RSS, Redis used_memory per number (against ~70 bytes
 * for a plain set, measured here on 200,000 of them), and the cost of a lookup of 1,000 numbers
 * (`which()`) and of one number (as an import checks each row).
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
import { compiledCli, OURS } from "./daemon-process.ts";
import { fmt, mb, median, table } from "./lib.ts";

const PREFIX = "vcw-bench";
/** Florida's area codes and a few more: a state's subscription, as telemarketers buy them. */
const AREAS = [239, 305, 321, 352, 386, 407, 561, 727, 754, 772, 786, 813, 850, 863, 904, 941, 954];
const LOOKUPS = 200;

type Distribution = "clustered" | "random";

/** Writes (once, kept under bench/.data/) an extract of exactly `n` distinct numbers. */
async function extract(n: number, distribution: Distribution): Promise<string> {
  const dir = resolve("bench/.data");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, distribution === "clustered" ? `dnc-${n}.txt` : `dnc-${distribution}-${n}.txt`);
  if (existsSync(path)) return path;
  const out = createWriteStream(`${path}.tmp`);
  let chunk: string[] = [];
  const flush = async () => {
    if (!out.write(chunk.join(""))) await once(out, "drain");
    chunk = [];
  };
  const lines = distribution === "clustered" ? clustered(n) : scattered(n);
  for (const line of lines) {
    chunk.push(line);
    if (chunk.length >= 10_000) await flush();
  }
  await flush();
  out.end();
  await once(out, "finish");
  renameSync(`${path}.tmp`, path);
  return path;
}

/** Florida's area codes first, most exchanges in use, 5-35% of each one's numbers, sorted. */
function* clustered(n: number): Generator<string> {
  const next = random(20);
  let written = 0;
  for (let a = 0; written < n; a += 1) {
    const area = AREAS[a % AREAS.length]! + 100 * Math.floor(a / AREAS.length); // past the list: more codes
    for (let exchange = 200; exchange <= 999 && written < n; exchange += 1) {
      if (next() < 0.3) continue; // not in use
      const density = 0.05 + 0.3 * next();
      for (let line = 0; line < 10_000 && written < n; line += 1) {
        if (next() >= density) continue;
        written += 1;
        yield `${area},${exchange}${String(line).padStart(4, "0")}\n`;
      }
    }
  }
}

/** Uniform over area codes and exchanges 200-999 and their 10,000 lines, each once, in no order. */
function* scattered(n: number): Generator<string> {
  const next = random(31);
  const seen = new Set<number>();
  while (seen.size < n) {
    const number =
      (200 + Math.floor(next() * 800)) * 1e7 +
      (200 + Math.floor(next() * 800)) * 1e4 +
      Math.floor(next() * 1e4);
    if (seen.has(number)) continue;
    seen.add(number);
    const text = String(number);
    yield `${text.slice(0, 3)},${text.slice(3)}\n`;
  }
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

/** `vcw ARGS` of the compiled tree at `root` in a process of its own: its wall time and peak RSS. */
async function vcwIn(root: string, args: string[], redisUrl: string) {
  const bin = compiledCli(root);
  if (typeof bin !== "string") throw new Error(bin.missing);
  const started = performance.now();
  const child = spawn(process.execPath, [bin, ...args], {
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

interface Measured {
  tree: string;
  n: number;
  blocks: number;
  importMs: number;
  rss: number;
  floorRss: number;
  perNumber: number;
  plain: number;
  lookup: Awaited<ReturnType<typeof lookupCost>>;
}

/** One tree's import on a fresh redis-server, and the lookups of what it loaded. */
async function measure(tree: string, root: string, file: string, n: number): Promise<Measured> {
  const server = await startRedisServer();
  const redis = new Redis(server.url, { maxRetriesPerRequest: null });
  try {
    const before = await usedMemory(redis);
    const imported = await vcwIn(root, ["suppress", "import", file, "--source", "ftc"], server.url);
    const after = await usedMemory(redis);
    const [list] = await createDoNotCallLists(redis, redisKeys(PREFIX)).lists();
    if (list?.numbers !== n) throw new Error(`${tree}: loaded ${list?.numbers} numbers of ${n}`);
    const lookup = await lookupCost(redis);
    // The CLI's own floor: a command that reads a few keys.
    const floor = await vcwIn(root, ["suppress", "list", "--sources"], server.url);
    const plain = await plainSetBytes(redis);
    return {
      tree,
      n,
      blocks: list.blocks,
      importMs: imported.ms,
      rss: imported.rss,
      floorRss: floor.rss,
      perNumber: (after - before) / n,
      plain,
      lookup,
    };
  } finally {
    await redis.quit();
    await server.stop();
  }
}

export async function run(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      numbers: { type: "string" },
      quick: { type: "boolean" },
      distribution: { type: "string" },
      base: { type: "string" },
    },
    strict: false,
  });
  const n = Number(values.numbers ?? (values.quick ? 1_000_000 : 10_000_000));
  const distribution = (values.distribution ?? "clustered") as Distribution;
  if (distribution !== "clustered" && distribution !== "random")
    throw new Error(`--distribution ${distribution}: clustered or random`);
  const file = await extract(n, distribution);
  const trees = [{ label: "ours", root: OURS }];
  if (typeof values.base === "string") trees.push({ label: "base", root: resolve(values.base) });
  const runs: Measured[] = [];
  for (const t of trees) runs.push(await measure(t.label, t.root, file, n));
  table(
    runs.map((r) => ({
      tree: r.tree,
      distribution,
      numbers: fmt(r.n),
      keys: fmt(r.blocks),
      "import s": fmt(r.importMs / 1000, 1),
      "numbers/s": fmt(r.n / (r.importMs / 1000)),
      "peak RSS": mb(r.rss),
      "CLI floor RSS": mb(r.floorRss),
      "Redis MB": fmt((r.perNumber * r.n) / 1024 / 1024, 1),
      "bytes/number": fmt(r.perNumber, 2),
      "plain set bytes/number": fmt(r.plain, 1),
      "which(1,000) µs": fmt(r.lookup.us),
      "which(1) µs": fmt(r.lookup.usOne),
      "opt-out check(1) µs": fmt(r.lookup.usOptOut),
    })),
  );
  for (const r of runs)
    console.log(
      `${r.tree} (${distribution}): ${fmt(r.perNumber, 2)} bytes a number (bound 12: ${fmt(r.perNumber / 12, 2)}), ${fmt(r.importMs / 1000, 1)} s for ${fmt(r.n)} (bound 10 s a million: ${fmt(r.importMs / 1000 / (10 * (r.n / 1e6)), 2)}), a plain set ${fmt(r.plain, 1)}`,
    );
  const [ours, base] = runs;
  if (ours && base)
    console.log(
      `ours / base (${distribution}, one run): bytes a number ${fmt(ours.perNumber / base.perNumber, 3)}, import time ${fmt(ours.importMs / base.importMs, 3)}, peak RSS ${fmt(ours.rss / base.rss, 3)}, which(1,000) ${fmt(ours.lookup.us / base.lookup.us, 3)}, which(1) ${fmt(ours.lookup.usOne / base.lookup.usOne, 3)}`,
    );
}
