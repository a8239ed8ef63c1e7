import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "./clean-env.ts";
import { tempDir } from "./files.ts";

const run = promisify(execFile);

/** The environment of a process outside the checkout: no npm_* variables of the `npm test` we run under. */
export const outsideEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_")));

export const sh = (file: string, args: string[], cwd: string, timeout = 240_000) =>
  run(file, args, { cwd, env: outsideEnv(), timeout, maxBuffer: 16 * 1024 * 1024 });

/**
 * The package as a consumer gets it: `npm pack` in the checkout (it builds first: prepack), then
 * installed from the tarball into an empty project. The tarball, the files it holds, the project.
 */
export async function packedInstall(): Promise<{ tarball: string; files: string[]; consumer: string }> {
  const out = tempDir("vcw-pack-");
  const packed = await sh("npm", ["pack", "--json", "--pack-destination", out], ROOT);
  const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf("["))) as {
    filename: string;
    files: { path: string }[];
  }[];
  const tarball = join(out, info!.filename);
  const consumer = join(out, "consumer");
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
  return { tarball, files: info!.files.map((f) => f.path), consumer };
}
