import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

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
  queue: ["telemetry", "pipeline", "inbox", "sinks", "config", "ingest", "api", "lib"],
  /** Sinks read the results model and render reports with pipeline/reports (pure renderers). */
  sinks: ["pipeline/results/model.ts", "pipeline/reports", "lib"],
  pipeline: ["telemetry", "inbox", "config", "ingest", "api", "lib"],
  inbox: ["lib"],
  config: ["inbox", "ingest", "api", "limiter", "lib"],
  limiter: ["api", "lib"],
  ingest: ["api/schemas", "lib"],
  simulator: ["api", "lib"],
  api: ["lib"],
  /** Traces (OpenTelemetry): started by the entry, used by the queue layer and the pipeline. */
  telemetry: ["api", "lib"],
  lib: [],
};

const SRC = resolve(import.meta.dirname, "../src");
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*"(\.{1,2}\/[^"]+)"|import\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g;

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

/** Every import of one folder into another: `from -> to` as paths under src/. */
function crossings(): { from: string; to: string }[] {
  const out: { from: string; to: string }[] = [];
  for (const file of sources(SRC)) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2]!;
      const to = relative(SRC, resolve(dirname(file), spec));
      const from = relative(SRC, file);
      if (from.split("/")[0] !== to.split("/")[0]) out.push({ from, to });
    }
  }
  return out;
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

  it("Redis keys are named in lib/redis-keys.ts only", () => {
    const named = [...sources(SRC)]
      .filter((f) => !f.endsWith("redis-keys.ts"))
      .filter((f) => /`\$\{[a-z.]*prefix[a-z.]*\}:/i.test(readFileSync(f, "utf8")));
    expect(named.map((f) => relative(SRC, f))).toEqual([]);
  });
});
