#!/usr/bin/env node
// The npm registry reachable here lacks some platform-specific optional packages (biome, msgpackr-extract
// builds for other systems). `npm install` then leaves them out of package-lock.json and `npm ci` refuses
// the lock as out of sync. This adds lock entries for them, with their os/cpu/libc, so `npm ci` sees a
// complete lock and skips them on platforms they are not for. Run after `npm install`.
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
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : 1)),
);
writeFileSync("package-lock.json", `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `added lock entries: ${added.join(", ")}` : "lock already complete");
