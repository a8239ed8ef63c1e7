import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jobsDir, jobsDirSetting, resourcesDir, resourcesDirSetting } from "../../src/config/folders.ts";
import { LOG_LEVELS, logLevelOf, logLevelSetting } from "../../src/config/log-level.ts";
import { describeSettings, resolveSettings, TUNING_SETTINGS } from "../../src/config/settings.ts";
import { createLogger } from "../../src/daemon/logger.ts";

/** Every .ts file under src/. */
const sources = (dir = "src"): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );

afterEach(() => vi.unstubAllEnvs());

describe("LOG_LEVEL, one setting (issue 44 item 5)", () => {
  it("pino's levels and silent; unset or empty: the caller's default (the daemon's info, a command's warn)", () => {
    expect([...LOG_LEVELS].sort()).toEqual([...Object.keys(pino.levels.values), "silent"].sort());
    expect(logLevelOf({}, "warn")).toBe("warn");
    expect(logLevelOf({ LOG_LEVEL: "" }, "info")).toBe("info");
    for (const level of LOG_LEVELS) expect(logLevelOf({ LOG_LEVEL: level }, "warn")).toBe(level);
    expect(logLevelSetting({ LOG_LEVEL: "debug" }, "info")).toEqual({ value: "debug", source: "$LOG_LEVEL" });
    expect(resolveSettings({}, "/tmp").logLevel).toEqual({ value: "info", source: "default" });
    expect(describeSettings(resolveSettings({ LOG_LEVEL: "debug" }, "/tmp"))).toContain(
      "logLevel: debug ($LOG_LEVEL)",
    );
  });

  it("a bad value is an error naming LOG_LEVEL and the values allowed: Settings, the logger, the commands", () => {
    const clear = /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not "verbose"$/;
    expect(() => logLevelOf({ LOG_LEVEL: "verbose" }, "warn")).toThrow(clear);
    expect(() => resolveSettings({ LOG_LEVEL: "verbose" }, "/tmp")).toThrow(clear);
    expect(() => logLevelOf({ LOG_LEVEL: "INFO" }, "warn")).toThrow(/LOG_LEVEL must be one of/);
    vi.stubEnv("LOG_LEVEL", "verbose");
    expect(() => createLogger({ destination: pino.destination("/dev/null") })).toThrow(clear);
  });

  it("is read in config/log-level.ts alone", () => {
    const readers = sources().filter((f) => /\benv(\.|\[")LOG_LEVEL/.test(readFileSync(f, "utf8")));
    expect(readers).toEqual([join("src", "config", "log-level.ts")]);
  });
});

describe("VCW_RESOURCES_DIR and VCW_JOBS_DIR, one reading each (issue 44 item 5)", () => {
  it("Settings' resourcesDir and the commands' resourcesDir() are the same value, with one default", () => {
    const cwd = process.cwd();
    for (const env of [
      {},
      { VCW_RESOURCES_DIR: "" },
      { VCW_RESOURCES_DIR: "pools" },
      { VCW_RESOURCES_DIR: "/srv/res" },
    ]) {
      expect(resolveSettings(env, cwd).resourcesDir).toEqual(resourcesDirSetting(env, cwd));
      expect(resourcesDir(undefined, env)).toBe(resolveSettings(env, cwd).resourcesDir.value);
    }
    expect(resourcesDirSetting({}, "/w")).toEqual({ value: "/w/resources", source: "default ./resources" });
    expect(resourcesDirSetting({ VCW_RESOURCES_DIR: "pools" }, "/w")).toEqual({
      value: "/w/pools",
      source: "$VCW_RESOURCES_DIR",
    });
    vi.stubEnv("VCW_RESOURCES_DIR", "from-env");
    expect(resourcesDir()).toBe(resolve("from-env"));
    expect(resourcesDir("given")).toBe("given");
  });

  it("VCW_JOBS_DIR likewise: Settings' jobsDir and the commands' jobsDir(), one default", () => {
    const cwd = process.cwd();
    for (const env of [{}, { VCW_JOBS_DIR: "" }, { VCW_JOBS_DIR: "mine" }, { VCW_JOBS_DIR: "/srv/jobs" }]) {
      expect(resolveSettings(env, cwd).jobsDir).toEqual(jobsDirSetting(env, cwd));
      // The same folder; the commands name it as written (their output names files under it).
      expect(resolve(cwd, jobsDir(undefined, env))).toBe(resolveSettings(env, cwd).jobsDir.value);
    }
    expect(jobsDirSetting({}, "/w")).toEqual({ value: "/w/jobs", source: "default ./jobs" });
    expect(jobsDirSetting({ VCW_JOBS_DIR: "mine" }, "/w")).toEqual({
      value: "/w/mine",
      source: "$VCW_JOBS_DIR",
    });
    expect(jobsDir("given", { VCW_JOBS_DIR: "mine" })).toBe("given");
    expect([jobsDir(undefined, {}), jobsDir(undefined, { VCW_JOBS_DIR: "mine" })]).toEqual(["jobs", "mine"]);
  });

  it("are read in config/folders.ts alone (`vcw jobs check` and validate read VCW_JOBS_DIR themselves before)", () => {
    const folders = join("src", "config", "folders.ts");
    for (const variable of ["VCW_RESOURCES_DIR", "VCW_JOBS_DIR"]) {
      const reads = new RegExp(`env(\\.|\\[")${variable}`);
      expect(
        sources().filter((f) => reads.test(readFileSync(f, "utf8"))),
        variable,
      ).toEqual([]);
      expect(readFileSync(folders, "utf8")).toContain(`variable: "${variable}"`);
    }
  });
});

describe("the test and benchmark knobs (VCW_LOCK_MS, VCW_STALLED_INTERVAL_MS, VCW_MAX_STALLED)", () => {
  it("keep their defaults, and are logged at start only when set", () => {
    const s = resolveSettings({}, "/tmp");
    expect([s.lockMs.value, s.stalledIntervalMs.value, s.maxStalledCount.value]).toEqual([
      30_000, 30_000, 10,
    ]);
    const names = (lines: string[]) => lines.map((l) => l.split(":")[0]);
    expect(names(describeSettings(s)).filter((n) => TUNING_SETTINGS.has(n as never))).toEqual([]);
    const set = resolveSettings({ VCW_LOCK_MS: "1000", VCW_MAX_STALLED: "100" }, "/tmp");
    expect([set.lockMs.value, set.maxStalledCount.value]).toEqual([1_000, 100]);
    const lines = describeSettings(set);
    expect(lines).toContain("lockMs: 1000 ($VCW_LOCK_MS, a knob for tests and benchmarks)");
    expect(lines).toContain("maxStalledCount: 100 ($VCW_MAX_STALLED, a knob for tests and benchmarks)");
    expect(names(lines)).not.toContain("stalledIntervalMs");
  });

  it("are not in the user's table of docs/configuration.md, but under its heading for tests and benchmarks", () => {
    const doc = readFileSync("docs/configuration.md", "utf8");
    const [users, rest] = doc.split("## For tests and benchmarks");
    for (const name of ["VCW_LOCK_MS", "VCW_STALLED_INTERVAL_MS", "VCW_MAX_STALLED"]) {
      expect(users).not.toContain(name);
      expect(rest!.split("\n## ")[0]).toContain(`\`${name}\``);
    }
    expect(users).toContain("`LOG_LEVEL`");
  });
});

describe("docs/configuration.md, one table per variable (issue 44 item 5)", () => {
  /** The variables src/config/ reads: by name as a string literal, or as `env.NAME`. */
  const read = new Set(
    sources("src/config").flatMap((f) =>
      [...readFileSync(f, "utf8").matchAll(/(?:"|env\.)((?:VCW|VCS|REDIS|AWS)_[A-Z0-9_]+|LOG_LEVEL)\b/g)].map(
        (m) => m[1]!,
      ),
    ),
  );
  /** The variables each `## ` section's table names in its first column. */
  const tables = readFileSync("docs/configuration.md", "utf8")
    .split("\n## ")
    .map((section) => ({
      title: section.split("\n")[0]!,
      names: section
        .split("\n")
        .filter((l) => l.startsWith("| `"))
        .flatMap((l) => [...l.split("|")[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!)),
    }));
  /** Read as another's second spelling, and documented beside it in bucket-inbox.md. */
  const ALTERNATES = new Set(["AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL"]);

  it("lists every variable vcw reads in exactly one of its tables: settings, tuning, or tests", () => {
    for (const name of read) {
      if (ALTERNATES.has(name)) continue;
      const where = tables.filter((t) => t.names.includes(name)).map((t) => t.title);
      expect(where, name).toHaveLength(1);
    }
    const listed = tables.flatMap((t) => t.names);
    expect(listed.filter((n) => !read.has(n))).toEqual([]);
  });

  it("keeps tuning knobs out of the table of what to set", () => {
    const [settings, tuning] = [tables[0]!, tables.find((t) => t.title.startsWith("Tuning"))!];
    expect(settings.names).toContain("REDIS_URL");
    expect(tuning.names).toEqual(expect.arrayContaining(["VCW_STABLE_MS", "VCW_DELIVERY_BACKOFF_MAX_MS"]));
    expect(settings.names.length + tuning.names.length).toBe(39);
  });
});
