import { Command, InvalidArgumentError, Option } from "commander";
import { parseOutcomeMixes, parseStatusNames } from "../../simulator/outcome-mix.ts";
import { parseRateSchedule } from "../../simulator/rate-schedule.ts";
import { startSimulator } from "../../simulator/server.ts";
import { integer, nonNegative, port, positive, share } from "../options.ts";

export function simulatorCommand(): Command {
  return new Command("simulator")
    .description("Run the simulated Voice Assistant Calling Service over HTTP")
    .option("--port <port>", "port to listen on (0 = any free port)", port, 4010)
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .addOption(new Option("--api-key <key>", "API key clients must send").env("VCS_API_KEY"))
    .option("--seed <n>", "seed of the simulated call outcomes", integer, 1)
    .option("--time-scale <n>", "simulated seconds per real second", positive, 1)
    .option("--latency-ms <ms>", "latency added to every request", nonNegative, 0)
    .option("--jitter-ms <ms>", "up to this much more latency, at random", nonNegative, 0)
    .option("--rate-limit <n>", "requests per second accepted, then 429 (0 = off)", nonNegative, 0)
    .addOption(
      new Option(
        "--rate-limit-schedule <list>",
        "a limit that moves: SECONDS:PER_SECOND,... from the start, e.g. 0:200,30:100,60:200 (the last holds)",
      )
        .argParser(rateSchedule)
        .conflicts("rateLimit"),
    )
    .option("--max-inflight <n>", "requests handled at once, then 429 (0 = off)", nonNegative, 0)
    .option("--error-rate <share>", "share of requests answered with a 5xx", share, 0)
    .option(
      "--commit-then-fail-rate <share>",
      "share of writes applied, then answered 500 or dropped",
      share,
      0,
    )
    .addOption(
      new Option("--commit-then-fail-mode <mode>", "how such a write fails")
        .choices(["500", "drop", "html", "mixed"])
        .default("mixed"),
    )
    .option("--state-file <path>", "keep the simulator's data in this JSON file across restarts")
    .addOption(
      new Option(
        "--campaign-segment <mode>",
        "fixed: a started campaign calls its segment as it stood at the start; live: only contacts still in it at their turn",
      )
        .choices(["fixed", "live"])
        .default("fixed"),
    )
    .option(
      "--idempotency-keys",
      "honour an Idempotency-Key header on creates: the same key makes one record (the spec has none)",
    )
    .option(
      "--outcomes-by-assistant <json>",
      'each assistant\'s own outcome weights, by id or name: JSON or @FILE, e.g. {"Ava":{"completed":80,"no-answer":20}}',
      outcomeMixes,
    )
    .option(
      "--outcomes-by-dialer <json>",
      'each dialer\'s own outcome weights, by id or phone number: JSON or @FILE, e.g. {"+12122000100":{"no-answer":95,"completed":5}}',
      outcomeMixes,
    )
    .option(
      "--status-names <json>",
      'the service\'s own words for statuses, as audiences report them: JSON or @FILE, e.g. {"busy":"line-busy"}',
      statusNames,
    )
    .option(
      "--demo-records",
      "start with the demo assistant and dialer the example job names (Demo assistant, dlr_demo), as the embedded one has",
    )
    .action(async (o) => {
      if (!o.apiKey) {
        throw new Error("The simulator needs an API key: pass --api-key KEY or set VCS_API_KEY");
      }
      const sim = await startSimulator({
        apiKey: o.apiKey,
        port: o.port,
        host: o.host,
        seed: o.seed,
        timeScale: o.timeScale,
        stateFile: o.stateFile,
        campaignSegment: o.campaignSegment,
        demoRecords: o.demoRecords === true,
        idempotencyKeys: o.idempotencyKeys === true,
        callModel: {
          ...(o.outcomesByAssistant ? { outcomesByAssistant: o.outcomesByAssistant } : {}),
          ...(o.outcomesByDialer ? { outcomesByDialer: o.outcomesByDialer } : {}),
          ...(o.statusNames ? { statusNames: o.statusNames } : {}),
        },
        faults: {
          latencyMs: o.latencyMs,
          jitterMs: o.jitterMs,
          rateLimit: o.rateLimit,
          rateLimitSchedule: o.rateLimitSchedule ?? [],
          maxInflight: o.maxInflight,
          errorRate: o.errorRate,
          commitThenFailRate: o.commitThenFailRate,
          commitThenFailMode: o.commitThenFailMode,
        },
      });
      process.stdout.write(`${sim.url}\n`);
      const stop = async () => {
        await sim.close();
        process.exit(0);
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
}

/** A parser whose error becomes commander's message for the flag. */
const asArgument =
  <T>(parse: (value: string) => T) =>
  (value: string): T => {
    try {
      return parse(value);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };

const outcomeMixes = asArgument(parseOutcomeMixes);
const statusNames = asArgument(parseStatusNames);
const rateSchedule = asArgument(parseRateSchedule);
