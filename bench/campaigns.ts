/**
 * `npm run bench -- campaigns [--live N] [--calling N] [--seconds S] [--base DIR] [--only ours|base] [--json]`:
 * N live campaigns (by default a tenth calling now, the rest waiting for a start a day away), one
 * compiled worker (`vcw start`) polling them on a 10 s schedule for a fixed time, measured from
 * outside; the same with the base code tree (`--base`, default /work/wt-base-h8, built with
 * `npm run build` there) in the same run, one after the other, each with a fresh Redis and
 * simulator. Ratios are ours / base. `--json` prints one object: ours at the top level, `base`
 * and `ratios` beside. `--base-live M` measures the base with M campaigns (the same share calling).
 */
import { existsSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type CampaignsRun, PERIOD_MS, runCampaigns } from "./campaigns-run.ts";
import { fmt, table } from "./lib.ts";

const DEFAULT_BASE = "/work/wt-base-h8";

export async function run(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      live: { type: "string" },
      "base-live": { type: "string" },
      calling: { type: "string" },
      contacts: { type: "string" },
      seconds: { type: "string" },
      "time-scale": { type: "string" },
      base: { type: "string" },
      only: { type: "string" },
      json: { type: "boolean" },
    },
    strict: false,
  });
  const num = (v: unknown, fallback: number, name: string) => {
    const n = v === undefined ? fallback : Number(String(v).replace(/_/g, ""));
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} takes a number > 0, not "${v}"`);
    return n;
  };
  const live = Math.round(num(values.live, 2_000, "live"));
  const calling = Math.min(
    live,
    Math.round(num(values.calling, Math.max(1, Math.round(live / 10)), "calling")),
  );
  const common = {
    live,
    calling,
    contacts: Math.round(num(values.contacts, 12, "contacts")),
    seconds: num(values.seconds, 90, "seconds"),
    timeScale: num(values["time-scale"], 4, "time-scale"),
  };
  // The base may be measured at another size (its RSS at 10,000 against ours at 20,000).
  const baseLive = Math.round(num(values["base-live"], live, "base-live"));
  const baseSize = { live: baseLive, calling: Math.round((calling * baseLive) / live) };
  const ours = fileURLToPath(new URL("../..", import.meta.url));
  const base = String(values.base ?? DEFAULT_BASE);
  const runs: CampaignsRun[] = [];
  if (values.only !== "base") runs.push(await runCampaigns({ ...common, label: "ours", root: ours }));
  if (values.only !== "ours") {
    if (existsSync(`${base}/dist/src/cli/bin.js`))
      runs.push(await runCampaigns({ ...common, ...baseSize, label: "base", root: base }));
    else console.error(`no compiled base at ${base}/dist (run npm run build there): base not measured`);
  }
  const mine = runs.find((r) => r.label === "ours");
  const theirs = runs.find((r) => r.label === "base");
  const ratios = mine && theirs ? ratiosOf(mine, theirs) : undefined;
  const loadAverage = os.loadavg().map((l) => Math.round(l * 100) / 100);
  if (values.json) {
    console.log(JSON.stringify({ ...(mine ?? theirs), base: theirs, ratios, loadAverage }));
    return;
  }
  console.log(
    `${fmt(live)} live campaigns (${fmt(calling)} calling, ${fmt(live - calling)} waiting for a start a day away), ${common.contacts} contacts each, a ${PERIOD_MS / 1000} s schedule, ${fmt(common.seconds)} s measured per run; load average at the end ${loadAverage.join(", ")}`,
  );
  const rows: [string, (r: CampaignsRun) => string, string][] = [
    ["live / calling", (r) => `${fmt(r.live)} / ${fmt(r.calling)}`, ""],
    ["polls needed/s (calling, each tick)", (r) => fmt(r.pollsNeededPerSec, 1), ""],
    ["polls done/s", (r) => fmt(r.pollsDonePerSec, 1), ""],
    ["calling polled every tick", (r) => `${fmt(100 * r.callingPolledEveryTick, 1)}%`, "100%"],
    ["requests/campaign-hour, calling", (r) => fmt(r.requestsPerCampaignHour.calling, 0), "360"],
    ["requests/campaign-hour, waiting", (r) => fmt(r.requestsPerCampaignHour.waiting, 1), "<= 18 (360/20)"],
    ["daemon CPU ms/poll", (r) => fmt(r.cpuMsPerPoll, 2), ""],
    ["daemon CPU (cores)", (r) => fmt(r.daemonCpuCores, 2), ""],
    ["simulator / Redis CPU (cores)", (r) => `${fmt(r.simCpuCores, 2)} / ${fmt(r.redisCpuCores, 2)}`, ""],
    // Every due poll made at this machine's cost a poll: the daemon's one thread, and the three processes.
    [
      "cores every poll needs: daemon / all three",
      (r) => `${fmt(coresNeeded(r).daemon, 2)} / ${fmt(coresNeeded(r).all, 2)}`,
      `<= 1 / <= ${os.cpus().length}`,
    ],
    ["Redis commands/poll", (r) => fmt(r.redisCommandsPerPoll, 1), ""],
    ["peak RSS MB", (r) => fmt(r.peakRssMb), ""],
    ["Redis bytes/campaign (end)", (r) => fmt(r.redisBytesPerCampaign), ""],
    ["Redis bytes/campaign (an hour)", (r) => fmt(r.redisBytesPerCampaignHour), "<= 51,200"],
    ["tick enqueue ms (longest)", (r) => fmt(r.tickEnqueueMs), ""],
    ["end noticed after ms (median)", (r) => fmt(r.endNoticedAfterMs), "ours <= base"],
    ["end noticed after ms (p95)", (r) => fmt(r.endNoticedAfterMsP95), ""],
    ["ends noticed / missed", (r) => `${r.endsNoticed} / ${r.endsMissed}`, ""],
    ["ticks reported behind", (r) => (r.maxLagMs < 0 ? "(not reported)" : String(r.behindTicks)), ""],
  ];
  table(
    rows.map(([measure, show, goal]) => ({
      measure,
      ...Object.fromEntries(runs.map((r) => [r.label, show(r)])),
      goal,
    })),
  );
  if (ratios) console.log("ours / base:", ratios);
}

/**
 * The cores polling every calling campaign each tick would take: what each process spent in the
 * run, over the share of calling campaigns it polled each tick. The daemon's (one thread: at most 1)
 * and all three processes'.
 */
function coresNeeded(r: CampaignsRun): { daemon: number; all: number } {
  const scale = r.callingPolledEveryTick > 0 ? 1 / r.callingPolledEveryTick : Number.POSITIVE_INFINITY;
  const daemon = r.daemonCpuCores * scale;
  return { daemon, all: daemon + (r.simCpuCores + r.redisCpuCores) * scale };
}

function ratiosOf(ours: CampaignsRun, base: CampaignsRun) {
  const r = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 1000) / 1000);
  return {
    pollsDonePerSec: r(ours.pollsDonePerSec, base.pollsDonePerSec),
    callingPolledEveryTick: r(ours.callingPolledEveryTick, base.callingPolledEveryTick),
    requestsPerWaitingCampaignHour: r(
      ours.requestsPerCampaignHour.waiting,
      base.requestsPerCampaignHour.waiting,
    ),
    cpuMsPerPoll: r(ours.cpuMsPerPoll, base.cpuMsPerPoll),
    redisCommandsPerPoll: r(ours.redisCommandsPerPoll, base.redisCommandsPerPoll),
    daemonCpuCores: r(ours.daemonCpuCores, base.daemonCpuCores),
    peakRssMb: r(ours.peakRssMb, base.peakRssMb),
    redisBytesPerCampaignHour: r(ours.redisBytesPerCampaignHour, base.redisBytesPerCampaignHour),
    tickEnqueueMs: r(ours.tickEnqueueMs, base.tickEnqueueMs),
    endNoticedAfterMs: r(ours.endNoticedAfterMs, base.endNoticedAfterMs),
  };
}
