/**
 * `npm run bench -- guardrail [--campaigns N[,N...]] [--looks L] [--base REF|DIR]`: what one look
 * of the experiment guardrail costs the polling process (CPU) and Redis (commands), for a job of N
 * finished 12-contact campaigns (default 10, 100 and 1,000), each look after one poll's change; with
 * `--base` the base tree's code the same way, in the same run. Redis is private: the commands
 * counted are the looks' own. A look that grows with N reads the whole job again (issue 48 item 5).
 */
import { parseArgs } from "node:util";
import { startRedisServer } from "../src/daemon/redis-server.ts";
import { fmt, table } from "./lib.ts";
import { loadAverageText, runInChild, sizesOf, treesOf } from "./tree-runs.ts";

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
  const counts = sizesOf(values.campaigns, "10,100,1000");
  const looks = Number(values.looks ?? 20);
  const trees = treesOf(values.base);

  const server = await startRedisServer();
  const rows = [];
  let prefix = 0;
  for (const campaigns of counts) {
    const results: Record<string, RunResult> = {};
    for (const [label, root] of trees)
      results[label] = await runInChild<RunResult>(
        new URL("./guardrail-run.js", import.meta.url),
        [root, String(campaigns), String(looks), server.url, `bench${prefix++}`],
        "guardrail",
      );
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
    `guardrail looks over a job of N finished 12-contact campaigns, ${looks} looks each after one poll's change; load average ${loadAverageText()}`,
  );
  table(rows);
}
