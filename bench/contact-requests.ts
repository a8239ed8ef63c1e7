/**
 * `npm run bench -- requests [--files N] [--contacts N] [--base DIR] [--only ours|base] [--json]`:
 * service requests per imported-and-called contact. N small files (default 10 of 12 contacts, every
 * number new) dropped into one compiled `vcw start` with a campaign per file (`audience: file`),
 * polled every 5 s until every campaign finished, the simulator 60 times faster than real time;
 * requests counted per operation by the proxy in front of the simulator. The same with the base
 * code tree in the same run.
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { startRedisServer } from "../src/daemon/redis-server.ts";
import { redisKeys } from "../src/lib/redis-keys.ts";
import { benchJob, startDaemon, startSim } from "./campaigns-run.ts";
import { table } from "./lib.ts";

const TIME_SCALE = 60;
const TIMEOUT_MS = 300_000;

export interface RequestsRun {
  label: string;
  files: number;
  contacts: number;
  campaigns: number;
  requests: number;
  requestsPerContact: number;
  /** Requests per operation (method and path) per contact. */
  perContact: Record<string, number>;
  seconds: number;
}

export async function run(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      files: { type: "string" },
      contacts: { type: "string" },
      base: { type: "string" },
      only: { type: "string" },
      json: { type: "boolean" },
    },
    strict: false,
  });
  const files = Number(values.files ?? 10);
  const contacts = Number(values.contacts ?? 12);
  if (!(files > 0 && contacts > 0)) throw new Error("--files and --contacts take numbers > 0");
  const base = String(values.base ?? "/work/wt-base-h8");
  const runs: RequestsRun[] = [];
  if (values.only !== "base")
    runs.push(await runOne("ours", fileURLToPath(new URL("../..", import.meta.url)), files, contacts));
  if (values.only !== "ours" && existsSync(`${base}/dist/src/cli/bin.js`))
    runs.push(await runOne("base", base, files, contacts));
  if (values.json) {
    console.log(JSON.stringify(runs));
    return;
  }
  console.log(
    `${files} files of ${contacts} new contacts, a campaign each (audience: file), polled every 5 s to the end`,
  );
  const paths = [...new Set(runs.flatMap((r) => Object.keys(r.perContact)))].sort();
  table([
    ...paths.map((path) => ({
      requests: path,
      ...Object.fromEntries(runs.map((r) => [`${r.label} / contact`, (r.perContact[path] ?? 0).toFixed(2)])),
    })),
    {
      requests: "all",
      ...Object.fromEntries(runs.map((r) => [`${r.label} / contact`, r.requestsPerContact.toFixed(2)])),
    },
  ]);
}

async function runOne(label: string, root: string, files: number, contacts: number): Promise<RequestsRun> {
  const server = await startRedisServer();
  const redis = new Redis(server.url, { maxRetriesPerRequest: null });
  const sim = startSim(TIME_SCALE);
  const home = mkdtempSync(join(tmpdir(), `vcw-bench-requests-${label}-`));
  const inbox = join(home, "inbox");
  mkdirSync(inbox, { recursive: true });
  const daemon = startDaemon(
    root,
    (await sim.ready).url,
    server.url,
    home,
    benchJob(home, "name: bench-requests", "*/5 * * * * *"),
  );
  try {
    await sleep(3_000);
    const started = Date.now();
    for (let f = 0; f < files; f++) {
      const rows = Array.from(
        { length: contacts },
        (_, i) => `+1415${String(3_000_000 + f * contacts + i).padStart(7, "0")},C${i},File ${f}`,
      );
      writeFileSync(join(inbox, `.f${f}.part`), `Phone,First Name,Last Name\n${rows.join("\n")}\n`);
      renameSync(join(inbox, `.f${f}.part`), join(inbox, `file-${f}.csv`));
    }
    const keys = redisKeys("bench");
    // Done: a campaign per file registered, none still active.
    for (;;) {
      await sleep(1_000);
      const all = await redis.scard(keys.campaignsOf("bench"));
      if (all >= files && (await redis.scard(keys.activeCampaignsOf("bench"))) === 0) break;
      if (Date.now() - started > TIMEOUT_MS)
        throw new Error(
          `${label}: ${all} of ${files} campaigns after ${TIMEOUT_MS / 1000} s, not all finished`,
        );
    }
    const seconds = (Date.now() - started) / 1000;
    const { byPath } = await sim.ask<{ byPath: Record<string, number> }>({ kind: "requests" });
    const total = files * contacts;
    const requests = Object.values(byPath).reduce((a, b) => a + b, 0);
    return {
      label,
      files,
      contacts: total,
      campaigns: await redis.scard(keys.campaignsOf("bench")),
      requests,
      requestsPerContact: requests / total,
      perContact: Object.fromEntries(Object.entries(byPath).map(([p, n]) => [p, n / total])),
      seconds: Math.round(seconds),
    };
  } finally {
    daemon.kill("SIGKILL");
    sim.child.kill();
    await redis.quit();
    await server.stop();
    rmSync(home, { recursive: true, force: true });
  }
}
