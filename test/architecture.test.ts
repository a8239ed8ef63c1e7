import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, SRC, sources } from "./support/source-imports.ts";

/**
 * The arrows between folders (docs/architecture.md): cli/daemon -> queue -> pipeline ->
 * {api, ingest, inbox, lib}; sinks read only the results model. A new import against them fails here.
 */
const ALLOWED: Record<string, readonly string[]> = {
  /** The package's entry: what a library user imports. */
  "index.ts": ["api", "simulator"],
  cli: [
    "telemetry",
    "daemon",
    "queue",
    "pipeline",
    "inbox",
    "sinks",
    "config",
    "ingest",
    "api",
    "limiter",
    "simulator",
    "lib",
  ],
  daemon: [
    "telemetry",
    "http",
    "queue",
    "pipeline",
    "inbox",
    "sinks",
    "config",
    "ingest",
    "api",
    "limiter",
    "simulator",
    "lib",
  ],
  /** The operator's surface: it reads what the queue layer and the pipeline keep; the daemon wires it. */
  http: ["queue", "pipeline", "inbox", "config", "api", "lib"],
  queue: ["telemetry", "pipeline", "inbox", "sinks", "config", "ingest", "api", "limiter", "lib"],
  /** Sinks read the results model and render reports with pipeline/reports (pure renderers). */
  sinks: ["pipeline/model", "pipeline/reports", "lib"],
  pipeline: ["telemetry", "inbox", "config", "calling-rules", "ingest", "api", "lib"],
  inbox: ["lib"],
  /**
   * The plug-ins' data (decision 0070): each sink type's definition (sinks/definitions.ts) and the
   * calling rule sets (calling-rules/), read without their code: see PLUGIN_DATA below.
   */
  config: [
    "inbox",
    "ingest",
    "api",
    "limiter",
    "lib",
    "sinks/definitions.ts",
    "sinks/definition-kit.ts",
    "calling-rules",
  ],
  /** The calling rule sets, one folder each, and the region tables they name (data with sources). */
  "calling-rules": ["lib"],
  limiter: ["api", "lib"],
  ingest: ["api/schemas", "lib"],
  simulator: ["api", "lib"],
  api: ["lib"],
  /** Traces (OpenTelemetry): started by the entry, used by the queue layer and the pipeline. */
  telemetry: ["api", "lib"],
  lib: [],
};

/**
 * The rooms inside pipeline/, each importing only rooms below it (docs/architecture.md): the files
 * at its root, then stores shared by several rooms, contacts, the import, results and reports,
 * campaigns, then the use cases that span them (resources, a dropped file's walk).
 */
const PIPELINE_ROOMS: Record<string, readonly string[]> = {
  /** create-once.ts runs the protocol over a slot of the create memo (stores/create-memo.ts). */
  "create-once.ts": ["errors.ts", "stores"],
  "errors.ts": [],
  "name-pattern.ts": [],
  /** Sticky experiment assignment (issue 33): pure, read by the stores, the planner and the campaigns. */
  "variant-assignment.ts": [],
  /** The experiments' statistics (issue 41): pure, read by the reports and the planner. */
  stats: [],
  /** The domain's types and their pure helpers (campaigns, results, resources): below every store. */
  model: [],
  /** Every store (issue 44): over the model. */
  stores: ["variant-assignment.ts", "errors.ts", "model"],
  contacts: ["stores", "create-once.ts", "name-pattern.ts", "errors.ts"],
  /** Consent per number and its revocations (issue 46): over its store. */
  consent: ["stores"],
  import: ["contacts", "consent", "stores", "name-pattern.ts", "errors.ts"],
  /** Calling rules and the planner (issue 20): pure, with its stores below it. */
  calling: ["stores", "variant-assignment.ts", "stats"],
  results: ["model", "stores", "consent", "create-once.ts", "errors.ts", "name-pattern.ts"],
  reports: ["model", "results", "stores", "errors.ts", "stats", "variant-assignment.ts"],
  campaign: [
    "model",
    "stores",
    "consent",
    "contacts",
    "results",
    "calling",
    "create-once.ts",
    "errors.ts",
    "name-pattern.ts",
    "variant-assignment.ts",
  ],
  resources: ["model", "campaign", "results", "stores", "create-once.ts", "errors.ts", "name-pattern.ts"],
  files: ["import", "campaign", "model", "stores", "errors.ts"],
  /** Every store built once (the daemon's and the CLI's Services): the one place that hands them Redis. */
  "open-stores.ts": ["stores"],
};

/**
 * What config/ may read of the plug-in folders, and all that it imports in turn: definitions and
 * data only, never a sink's code nor anything that imports config/ (no circle through them).
 */
const PLUGIN_DATA: readonly RegExp[] = [
  /^sinks\/definitions\.ts$/,
  /^sinks\/definition-kit\.ts$/,
  /^sinks\/[^/]+\/definition\.ts$/,
  /^calling-rules\//,
  /^lib\//,
];

/** Every import of one folder into another: `from -> to` as paths under src/. */
function crossings(): { from: string; to: string }[] {
  const out: { from: string; to: string }[] = [];
  for (const file of sources(SRC)) {
    const from = relative(SRC, file);
    for (const to of importsOf(file)) if (from.split("/")[0] !== to.split("/")[0]) out.push({ from, to });
  }
  return out;
}

/** Every import between two rooms of `folder`: paths under it. */
function crossingsWithin(folder: string): { from: string; to: string }[] {
  const inside = (path: string) => path.startsWith(`${folder}/`);
  return sameFolder(folder)
    .filter(({ to }) => inside(to))
    .map(({ from, to }) => ({ from: from.slice(folder.length + 1), to: to.slice(folder.length + 1) }))
    .filter(({ from, to }) => from.split("/")[0] !== to.split("/")[0]);
}

/** Every import made by a file under `folder`, as paths under src/. */
function sameFolder(folder: string): { from: string; to: string }[] {
  const out: { from: string; to: string }[] = [];
  for (const file of sources(join(SRC, folder)))
    for (const to of importsOf(file)) out.push({ from: relative(SRC, file), to });
  return out;
}

/** Where a Redis client may be held and given commands: the stores, the plumbing, and the wiring. */
const REDIS_FOLDERS = ["pipeline/stores/", "lib/", "inbox/", "limiter/", "daemon/"];

/** Files outside REDIS_FOLDERS that hold a Redis client, each for one reason. */
const REDIS_EXCEPTIONS: Record<string, string> = {
  "pipeline/open-stores.ts": "the one place every store is handed Redis",
  "cli/with-redis.ts": "the CLI's wiring: connects, opens the stores, keeps the connection for BullMQ",
  "http/health.ts": "/health pings Redis itself",
  "queue/read-model/sources.ts": "the read model shows the connection's state and the shared rate",
  "queue/start-worker.ts": "BullMQ's own connection (queue.client), for its job lock",
  "queue/bullmq-hold.ts": "reads BullMQ's job lock on BullMQ's connection",
  "telemetry/campaign-trace.ts":
    "a campaign's trace carrier: opened by openStores, beside the tracing it serves",
};

/** Files that still hold a script inline (`redis.call` in a .ts file). */
const INLINE_LUA_EXCEPTIONS: Record<string, string> = {
  "lib/per-key.ts": "calls ioredis's generic command method (`redis.call(name, ...args)`), holds no Lua",
};

/** Store constructors kept outside pipeline/stores/: opened by openStores all the same. */
const OTHER_STORES = ["createFileRegistry", "createInboxStores", "createCampaignTraces"];

/** Every function of pipeline/stores/ that takes Redis first: a store (or a part of one) being built. */
function storeMakers(): string[] {
  const names = new Set(OTHER_STORES);
  for (const file of sources(join(SRC, "pipeline/stores"))) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/export (?:async )?function (\w+)\(\s*redis: RedisClient/g))
      names.add(m[1]!);
  }
  return [...names];
}

describe("architecture", () => {
  it("imports between folders follow the arrows", () => {
    const all = crossings();
    expect(all.length).toBeGreaterThan(50); // the scan sees the code
    const wrong = all.filter(({ from, to }) => {
      const allowed = ALLOWED[from.split("/")[0]!];
      if (!allowed) return true;
      return !allowed.some((a) => to === a || to.startsWith(`${a}/`));
    });
    expect(wrong.map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });

  it("imports between the rooms of pipeline/ go one way, down", () => {
    const rooms = crossingsWithin("pipeline");
    expect(rooms.length).toBeGreaterThan(20); // the scan sees the rooms
    const wrong = rooms.filter(({ from, to }) => {
      const allowed = PIPELINE_ROOMS[from.split("/")[0]!];
      if (!allowed) return true;
      return !allowed.some((a) => to === a || to.startsWith(`${a}/`));
    });
    expect(wrong.map(({ from, to }) => `pipeline/${from} -> pipeline/${to}`)).toEqual([]);
  });

  it("config/ reads of the plug-in folders their definitions and data only", () => {
    const seen = new Set<string>();
    const next = crossings()
      .filter(({ from, to }) => from.startsWith("config/") && /^(sinks|pipeline|calling-rules)\//.test(to))
      .map(({ to }) => to);
    expect(next.length).toBeGreaterThan(0); // the scan sees them
    while (next.length > 0) {
      const file = next.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      next.push(...importsOf(join(SRC, file)));
    }
    expect([...seen].filter((f) => !PLUGIN_DATA.some((re) => re.test(f)))).toEqual([]);
  });

  it("Redis keys are named in lib/redis-keys.ts only", () => {
    const named = [...sources(SRC)]
      .filter((f) => !f.endsWith("redis-keys.ts"))
      .filter((f) => /`\$\{[a-z.]*prefix[a-z.]*\}:/i.test(readFileSync(f, "utf8")));
    expect(named.map((f) => relative(SRC, f))).toEqual([]);
  });

  it("stores are built in pipeline/open-stores.ts only (a store may be made of stores)", () => {
    const makers = storeMakers();
    expect(makers.length).toBeGreaterThan(20); // the scan sees the stores
    const call = new RegExp(`(?<!function |\\.)\\b(${makers.join("|")})\\(`, "g");
    const built = [...sources(SRC)]
      .map((f) => relative(SRC, f))
      .filter((f) => f !== "pipeline/open-stores.ts" && !f.startsWith("pipeline/stores/"))
      .flatMap((f) => [...readFileSync(join(SRC, f), "utf8").matchAll(call)].map((m) => `${f}: ${m[1]}`))
      // A store of inbox/ is made of inbox/'s own (its registry, a bucket's lease).
      .filter((hit) => !(hit.startsWith("inbox/") && /create(FileRegistry|InboxStores)$/.test(hit)));
    expect(built).toEqual([]);
  });

  it("a Redis client is held only by the stores, the plumbing and the wiring", () => {
    const held = [...sources(SRC)]
      .map((f) => relative(SRC, f))
      .filter((f) => !REDIS_FOLDERS.some((folder) => f.startsWith(folder)) && !(f in REDIS_EXCEPTIONS))
      .filter((f) =>
        /from "ioredis"|\bRedisClient\b|\bredis\.(?!on\()\w+\(/.test(readFileSync(join(SRC, f), "utf8")),
      );
    expect(held).toEqual([]);
  });

  it("Lua lives in .lua files, read once at load (lib/scripts.ts luaFile)", () => {
    const inline = [...sources(SRC)]
      .map((f) => relative(SRC, f))
      .filter((f) => !(f in INLINE_LUA_EXCEPTIONS))
      .filter((f) => /redis\.call\(|redis\.pcall\(/.test(readFileSync(join(SRC, f), "utf8")));
    expect(inline).toEqual([]);
  });

  it("each exception above is still needed", () => {
    const text = (f: string) => readFileSync(join(SRC, f), "utf8");
    for (const f of Object.keys(REDIS_EXCEPTIONS))
      expect(/from "ioredis"|\bRedisClient\b|\bredis\.\w+\(/.test(text(f)), f).toBe(true);
    for (const f of Object.keys(INLINE_LUA_EXCEPTIONS)) expect(text(f), f).toMatch(/redis\.call\(/);
  });
});
