import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/files.ts";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSC = join(ROOT, "node_modules", ".bin", "tsc");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

/** The environment of a process outside the checkout: no npm_* variables of the `npm test` we run under. */
const outsideEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_")));

const sh = (file: string, args: string[], cwd: string, timeout = 240_000) =>
  run(file, args, { cwd, env: outsideEnv(), timeout, maxBuffer: 16 * 1024 * 1024 });

function duBytes(path: string): number {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st || st.isSymbolicLink()) return 0;
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((sum, name) => sum + duBytes(join(path, name)), 0);
}

/** The client and its errors from plain Node, against the simulator the package ships. */
const PLAIN_CONSUMER = `
import { APIError, NotFoundError, RequestValidationError, createClient, startSimulator } from "voice-campaign-worker";
const sim = await startSimulator({ apiKey: "k-pack" });
try {
  const client = createClient({ baseUrl: sim.url, apiKey: "k-pack", maxRetries: 0 });
  const segment = await client.segments.create({ name: "from-the-tarball" });
  const missing = await client.contacts.list("nope").catch((e) => e);
  const invalid = await client.segments.create({ name: "" }).catch((e) => e);
  console.log(JSON.stringify({
    created: typeof segment.id,
    notFound: missing instanceof NotFoundError && missing instanceof APIError && missing.status,
    invalid: invalid instanceof RequestValidationError,
  }));
} finally {
  await sim.close();
}
`;

/** A TypeScript consumer checked against the declarations; a wrong call must be refused. */
const TS_CONSUMER = `
import { type APIError, createClient, NotFoundError } from "voice-campaign-worker";
const client = createClient({ baseUrl: "http://127.0.0.1:1/api/v1", apiKey: "k" });
export async function names(): Promise<string[]> {
  const segments = await client.segments.list();
  return segments.map((s) => s.name ?? "");
}
export const isMissing = (e: unknown): e is APIError => e instanceof NotFoundError;
// @ts-expect-error a segment's name is a string: the declarations must say so
void client.segments.create({ name: 42 });
`;

describe("the package as a consumer installs it from its tarball", () => {
  let tarball = "";
  let consumer = "";
  let files: string[] = [];

  beforeAll(async () => {
    const out = tempDir("vcw-pack-");
    // `npm pack` builds first (prepack): the tarball holds dist/, never the sources or the tests.
    const packed = await sh("npm", ["pack", "--json", "--pack-destination", out], ROOT);
    const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf("["))) as {
      filename: string;
      files: { path: string }[];
    }[];
    tarball = join(out, info!.filename);
    files = info!.files.map((f) => f.path);
    consumer = join(out, "consumer");
    mkdirSync(consumer);
    writeFileSync(
      join(consumer, "package.json"),
      JSON.stringify({ name: "consumer", private: true, type: "module" }),
    );
    await sh(
      "npm",
      ["install", tarball, "--prefer-offline", "--no-audit", "--no-fund", "--omit=dev", "--loglevel=error"],
      consumer,
    );
  }, 600_000);

  it("carries the build and its declarations, not the sources, tests or tools", () => {
    expect(files).toContain("dist/src/index.js");
    expect(files).toContain("dist/src/index.d.ts");
    expect(files).toContain("dist/src/http/dashboard/index.html");
    expect(files).toContain("bin/vcw.js");
    expect(files.filter((f) => /^(src|test|bench|dist\/bench|scripts|\.ci|docs)\//.test(f))).toEqual([]);
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
  });

  it("pulls no TypeScript runner: neither tsx nor esbuild", () => {
    const modules = join(consumer, "node_modules");
    expect(existsSync(join(modules, "voice-campaign-worker", "dist", "src", "index.js"))).toBe(true);
    expect(existsSync(join(modules, "tsx"))).toBe(false);
    expect(existsSync(join(modules, "esbuild"))).toBe(false);
    expect(existsSync(join(modules, "typescript"))).toBe(false);
    console.log(`consumer install: ${(duBytes(modules) / 1024 / 1024).toFixed(1)} MB in node_modules`);
  });

  it("imports the client and its error classes from plain Node", async () => {
    writeFileSync(join(consumer, "plain.mjs"), PLAIN_CONSUMER);
    const { stdout } = await sh(process.execPath, ["plain.mjs"], consumer, 60_000);
    expect(JSON.parse(stdout)).toEqual({ created: "string", notFound: 404, invalid: true });
  });

  it("type-checks a TypeScript consumer against the declarations", async () => {
    writeFileSync(join(consumer, "use.ts"), TS_CONSUMER);
    writeFileSync(
      join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "nodenext",
          target: "es2022",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ["node"],
          typeRoots: [join(ROOT, "node_modules", "@types")],
        },
        files: ["use.ts"],
      }),
    );
    const checked = await sh(TSC, ["-p", "."], consumer, 120_000).catch((e: { stdout: string }) => e);
    expect(checked.stdout).toBe("");
    // The same consumer with a real mistake is refused: the types are there, not `any`.
    writeFileSync(join(consumer, "use.ts"), `${TS_CONSUMER}\nconst n: number = createClient;\n`);
    const refused = await sh(TSC, ["-p", "."], consumer, 120_000).catch((e: { stdout: string }) => e);
    expect(refused.stdout).toMatch(/use\.ts\(\d+,\d+\): error TS2322/);
  });

  it("`npx vcw --version` runs the built CLI", async () => {
    const { stdout } = await sh("npx", ["--no", "--", "vcw", "--version"], consumer, 60_000);
    expect(stdout.trim()).toBe(VERSION);
    const usage = await sh("npx", ["--no", "--", "vcw", "no-such-command"], consumer, 60_000).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(usage).toMatchObject({ code: 2 });
    expect((usage as { stderr: string }).stderr).toContain("unknown command 'no-such-command'");
  });
});
