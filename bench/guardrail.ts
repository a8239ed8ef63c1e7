/**
 * `npm run bench -- guardrail [--campaigns N[,N...]] [--looks L] [--base REF|DIR]`: what one look
 * of the experiment guardrail costs the polling process (CPU) and Redis (commands), for a job of N
 * finished 12-contact campaigns (default 10, 100 and 1,000), each look after one poll's change; with
 * `--base` the base tree's code the same way, in the same run. Redis is private: the commands
 * counted are the looks' own. A look that grows with N reads the whole job again (issue 48 item 5).
 */
import { fork } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startRedisServer } from "../src/daemon/redis-server.ts";
import { baseTree, OURS } from "./base-tree.ts";
import { fmt, table } from "./lib.ts";

interface RunResult {
  cpuMsPerLook: number;
  commandsPerLook: number;
  firstLook: { cpuMs: number; commands: number };
  looks: number;
}

export async function run(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { campaigns: { type: "string" }, looks: { type: "string" }, base: { type: "string" } },
    strict: false,
  });
  const counts = String(values.campaigns ?? "10,100,1000")
    .split(",")
    .map((v) => Number(v.replace(/_/g, "")));
  const looks = Number(values.looks ?? 20);
  const trees = [["ours", OURS]];
  if (typeof values.base === "string") trees.push(["base", baseTree(values.base)]);

  const server = await startRedisServer();
  const rows = [];
  let prefix = 0;
  for (const campaigns of counts) {
    const results: Record<string, RunResult> = {};
    for (const [label, root] of trees)
      results[label!] = await runOne(root!, campaigns, looks, server.url, `bench${prefix++}`);
    const ours = results.ours!;
    const base = results.base;
    rows.push({
      campaigns,
      "CPU ms/look": fmt(ours.cpuMsPerLook, 3),
      "commands/look": fmt(ours.commandsPerLook, 1),
      "first look CPU ms": fmt(ours.firstLook.cpuMs, 1),
      "first look commands": ours.firstLook.commands,
      ...(base
        ? {
            "base CPU ms/look": fmt(base.cpuMsPerLook, 3),
            "base commands/look": fmt(base.commandsPerLook, 1),
            "CPU ours / base": fmt(ours.cpuMsPerLook / base.cpuMsPerLook, 3),
          }
        : {}),
    });
  }
  await server.stop();
  console.log(
    `guardrail looks over a job of N finished 12-contact campaigns, ${looks} looks each after one poll's change; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(", ")}`,
  );
  table(rows);
}

function runOne(root: string, campaigns: number, looks: number, redisUrl: string, prefix: string) {
  const child = fork(
    fileURLToPath(new URL("./guardrail-run.js", import.meta.url)),
    [root, String(campaigns), String(looks), redisUrl, prefix],
    {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      execArgv: (process.env.BENCH_NODE_OPTIONS ?? "").split(" ").filter(Boolean),
    },
  );
  return new Promise<RunResult>((resolve, reject) => {
    child.once("message", (m) => resolve(m as RunResult));
    child.once("exit", (code) => reject(new Error(`the guardrail run exited with ${code}`)));
  });
}
