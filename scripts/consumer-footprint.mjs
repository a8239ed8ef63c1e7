#!/usr/bin/env node
// What a consumer installs, and how fast its `vcw --version` answers, for one or more tarballs (from
// `npm pack`), measured in one run so they compare: each is installed into an empty "type": "module"
// project in a temporary folder; then `du` (on disk and apparent), the packages, and `vcw --version`
// timed best of N, the tarballs' runs interleaved. Usage:
//   node scripts/consumer-footprint.mjs [--runs 5] A.tgz [B.tgz ...]
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";

const args = process.argv.slice(2);
const runsAt = args.indexOf("--runs");
const runs = runsAt >= 0 ? Number(args.splice(runsAt, 2)[1]) : 5;
const tarballs = args.map((a) => resolve(a));
if (tarballs.length === 0) {
  console.error("usage: node scripts/consumer-footprint.mjs [--runs N] A.tgz [B.tgz ...]");
  process.exit(2);
}

const packagesIn = (modules) =>
  readdirSync(modules).reduce(
    (n, name) =>
      name.startsWith(".") ? n : n + (name.startsWith("@") ? readdirSync(join(modules, name)).length : 1),
    0,
  );

const installs = tarballs.map((tgz) => {
  const dir = mkdtempSync(join(tmpdir(), "vcw-footprint-"));
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
  execFileSync("npm", ["install", tgz, "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: dir,
    stdio: "inherit",
  });
  const modules = join(dir, "node_modules");
  const du = (flags) => Number(execFileSync("du", [...flags, modules], { encoding: "utf8" }).split("\t")[0]);
  return {
    tarball: basename(tgz),
    dir,
    diskMiB: du(["-sk"]) / 1024,
    apparentMB: du(["-sb"]) / 1e6,
    packages: packagesIn(modules),
    best: Number.POSITIVE_INFINITY,
  };
});

// One warm-up each, then the runs interleaved: a busy moment hits every tarball alike.
for (let round = 0; round <= runs; round++) {
  for (const i of installs) {
    const started = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [join(i.dir, "node_modules", ".bin", "vcw"), "--version"], {
      encoding: "utf8",
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (r.status !== 0) throw new Error(`${i.tarball}: vcw --version exited ${r.status}: ${r.stderr}`);
    if (round > 0) i.best = Math.min(i.best, seconds);
  }
}

console.log(`node ${process.version}, vcw --version best of ${runs}`);
for (const i of installs)
  console.log(
    `${i.tarball}  ${i.dir}\n  node_modules ${i.diskMiB.toFixed(0)} MiB on disk (du -sk), ${i.apparentMB.toFixed(1)} MB apparent (du -sb), ${i.packages} packages; vcw --version ${i.best.toFixed(3)} s`,
  );
if (installs.length > 1) {
  const [a, ...rest] = installs;
  for (const b of rest)
    console.log(
      `${b.tarball} / ${a.tarball}: disk ${(b.diskMiB / a.diskMiB).toFixed(3)}, apparent ${(b.apparentMB / a.apparentMB).toFixed(3)}, --version ${(b.best / a.best).toFixed(3)}`,
    );
}
