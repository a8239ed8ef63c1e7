import { randomBytes } from "node:crypto";
import { copyFile, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Command } from "commander";
import { logLevelOf } from "../../config/log-level.ts";
import { DEFAULT_REACHED } from "../../config/service-profile.ts";
import { resolveSettings } from "../../config/settings.ts";
import { startDaemon } from "../../daemon/daemon.ts";
import { createLogger } from "../../daemon/logger.ts";
import { campaignFileBase } from "../../lib/campaign-file-name.ts";
import { describeTarget } from "../../lib/redis.ts";
import { summarize } from "../../pipeline/model/campaign-totals.ts";
import { summaryLines } from "../../sinks/summary-text.ts";
import { CliError } from "../cli-error.ts";
import { packageFile } from "../version.ts";

const JOB = (dir: string) => `name: demo
inbox: ${join(dir, "inbox")}
segment:
  name: Demo leads ${randomBytes(3).toString("hex")}
contacts:
  country: US
campaign:
  assistant: { name: Demo assistant }
  dialer: { id: dlr_demo }
  start: asap
polling:
  schedule: "* * * * * *"
  # Its own simulator starts on time: the first poll need not wait the default 15 s after the start.
  startGraceSeconds: 1
summaries:
  sinks: [files]
`;

/** The sample the package ships, found beside vcw (an installed package runs in another folder). */
const SAMPLE = "jobs/samples/example-leads.csv";

/** The whole path on embedded defaults: import the sample CSV, run its campaign, print the results. */
export function demoCommand(): Command {
  return new Command("demo")
    .description(
      "Run the whole path on embedded defaults in under a minute (sample CSV -> campaign -> results)",
    )
    .option("--sample <file>", `contacts CSV to use (default: the package's ${SAMPLE})`)
    .option("--dir <dir>", "working folder (emptied first)", ".vcw/demo")
    .action(async (o) => {
      const dir = resolve(o.dir);
      await rm(dir, { recursive: true, force: true });
      await mkdir(join(dir, "jobs"), { recursive: true });
      await writeFile(join(dir, "jobs", "demo.yaml"), JOB(dir));
      await writeFile(
        join(dir, "jobs", "sinks.yaml"),
        `sinks:\n  files:\n    type: file\n    dir: ${join(dir, "reports")}\n`,
      );
      const settings = resolveSettings({
        ...process.env,
        VCS_BASE_URL: "",
        VCW_JOBS_DIR: join(dir, "jobs"),
        VCW_HOME: join(dir, "home"),
        // Its own key space (under VCW_PREFIX when given), deleted when the demo ends.
        VCW_PREFIX: `${process.env.VCW_PREFIX || "vcw"}-demo-${randomBytes(3).toString("hex")}`,
        VCW_SIM_TIME_SCALE: "600",
        VCW_STABLE_MS: "200",
      });
      const logger = createLogger({ level: logLevelOf(process.env, "warn") });
      const started = performance.now();
      const say = (line: string) =>
        console.log(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${line}`);
      const daemon = await startDaemon({
        settings,
        logger,
        watch: true,
        work: true,
        oneOff: true,
        forgetOnClose: true,
      });
      try {
        await daemon.ready;
        say(
          `simulator at ${daemon.baseUrl} (600 simulated seconds a real second), Redis at ${describeTarget(daemon.redisTarget)} (keys under ${daemon.keys.prefix}:, deleted at the end)`,
        );
        const inbox = join(dir, "inbox");
        const sample: string = o.sample ?? packageFile(SAMPLE);
        await copyFile(sample, join(inbox, ".sample.part"));
        await rename(join(inbox, ".sample.part"), join(inbox, "example-leads.csv"));
        say(`dropped ${o.sample ?? SAMPLE} into ${relative(process.cwd(), inbox)}`);
        const store = daemon.stores.store;
        const deadline = Date.now() + 60_000;
        let announced = "";
        for (;;) {
          if (Date.now() > deadline) throw new CliError("the demo did not finish within a minute", 1);
          const [id] = await store.allOf("demo");
          const stored = id ? await store.get(id) : undefined;
          const state = stored ? `${stored.info.state}:${stored.totals.final}/${stored.totals.contacts}` : "";
          if (stored && state !== announced) {
            announced = state;
            say(
              `campaign ${stored.info.name}: ${stored.totals.final} of ${stored.totals.contacts} calls ended`,
            );
          }
          if (stored && stored.info.state !== "active") {
            const summary = summarize(stored.info, stored.totals, stored.version, "final", Date.now());
            await sleep(500); // let the file sink write
            console.log("");
            for (const line of summaryLines(summary, DEFAULT_REACHED)) console.log(`  ${line}`);
            console.log("");
            say(
              `results CSV: ${relative(process.cwd(), join(dir, "reports", `${campaignFileBase(stored.info)}.results.csv`))}`,
            );
            say(`import summary and error report: ${relative(process.cwd(), join(inbox, "done"))}`);
            break;
          }
          await sleep(250);
        }
      } finally {
        await daemon.close();
      }
    });
}
