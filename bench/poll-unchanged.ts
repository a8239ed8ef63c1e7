/**
 * `npm run bench -- poll-unchanged [--campaigns N[,N...]] [--rounds R] [--base REF|DIR]`: the CPU
 * an unchanged poll of a small campaign (12 contacts) costs the polling process, with N campaigns
 * polled in turn (default 100 and 2,000: a cost that grows with the count shows), R rounds each;
 * with `--base` the base tree's code the same way, alternating with ours, in the same run. The
 * audience is served by the simulator's process, Redis is private: the figure is the poll's alone.
 * Goal: 0.35 ms a poll (about what the service spends answering it, as measured when the goal was
 * set); beside it, what the simulator spends answering the same read on this machine, measured in
 * the same run: the goal as the machine makes it; and the floor, what the same request (fetch, its
 * body read whole) and one Redis read of the campaign's meta cost the polling process without vcw.
 */
import { parseArgs } from "node:util";
import { startRedisServer } from "../src/daemon/redis-server.ts";
import { fmt, table } from "./lib.ts";
import { startAudienceServer } from "./poll-fixture.ts";
import { loadAverageText, runInChild, sizesOf, treesOf } from "./tree-runs.ts";

interface RunResult {
  cpuMsPerPoll: number;
  wallMsPerPoll: number;
  polls: number;
  /** The same request (fetch, body read whole) and meta read without vcw's code, in the same process. */
  floorCpuMsPerPoll: number;
}

export async function run(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { campaigns: { type: "string" }, rounds: { type: "string" }, base: { type: "string" } },
    strict: false,
  });
  const counts = sizesOf(values.campaigns, "100,2000");
  const rounds = Number(values.rounds ?? 5);
  const trees = treesOf(values.base);

  const server = await startRedisServer();
  const { child, move, audiencesUrl, serviceCpuMsPerRequest } = await startAudienceServer(12);
  // Every campaign's audience is this one body: each poll after the first finds it unchanged.
  await move(60_000);
  await serviceCpuMsPerRequest(200); // warm
  const service = await serviceCpuMsPerRequest(2_000);

  const rows = [];
  let prefix = 0;
  for (const campaigns of counts) {
    const results: Record<string, RunResult> = {};
    for (const [label, root] of trees)
      results[label] = await runInChild<RunResult>(
        new URL("./poll-unchanged-run.js", import.meta.url),
        [root, String(campaigns), String(rounds), audiencesUrl, server.url, `bench${prefix++}`],
        "poll-unchanged",
      );
    const ours = results.ours!;
    const base = results.base;
    rows.push({
      campaigns,
      polls: ours.polls,
      "CPU ms/poll": fmt(ours.cpuMsPerPoll, 3),
      "wall ms/poll": fmt(ours.wallMsPerPoll, 3),
      goal: "<= 0.35",
      "service CPU ms/request": fmt(service, 3),
      "ours / service": fmt(ours.cpuMsPerPoll / service, 2),
      "floor CPU ms/poll": fmt(ours.floorCpuMsPerPoll, 3),
      "ours / floor": fmt(ours.cpuMsPerPoll / ours.floorCpuMsPerPoll, 2),
      ...(base
        ? {
            "base CPU ms/poll": fmt(base.cpuMsPerPoll, 3),
            "ours / base": fmt(ours.cpuMsPerPoll / base.cpuMsPerPoll, 2),
          }
        : {}),
    });
  }
  child.kill();
  await server.stop();
  console.log(
    `unchanged polls of 12-contact campaigns, ${rounds} rounds over each count (CPU of the polling process alone); load average ${loadAverageText()}`,
  );
  table(rows);
}
