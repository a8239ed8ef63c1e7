/**
 * `npm run bench -- calling [--rows N]`: the cost per row of the calling plan (issue 20) beside
 * reading the file. A file of N US contacts (area codes spread over the states, half with a State
 * column) is read once plainly (what every import pays), then read and planned: location (columns,
 * then libphonenumber data), rules, caps, sizing. Facts come from memory, not Redis, so the figure
 * is the planner's own CPU; the Redis reads are one batch per fact. Reported: µs per row each, and
 * the plan's cost against the import's own per-row time at the simulator's 200 requests a second.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { JobDefinition } from "../src/config/job-definition.ts";
import { ContactFileReader } from "../src/ingest/reader.ts";
import { gatherFacts } from "../src/pipeline/calling/gather-facts.ts";
import { planCampaigns } from "../src/pipeline/calling/plan-campaigns.ts";
import { planSettingsOf } from "../src/pipeline/calling/plan-settings.ts";
import { writeContactsCsv } from "./contacts-csv.ts";
import { fmt, table, timeIt } from "./lib.ts";

const IMPORT_RATE = 200;

export async function run(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { rows: { type: "string", default: "20000" } } });
  const rows = Number(values.rows);
  const dir = mkdtempSync(join(tmpdir(), "vcw-bench-calling-"));
  const file = join(dir, "contacts.csv");
  await writeContactsCsv(file, rows);
  const def = JobDefinition.parse({
    name: "bench",
    inbox: dir,
    segment: { name: "bench" },
    contacts: { country: "US" },
    campaign: {
      assistant: { id: "a" },
      dialer: { id: "d" },
      start: {
        window: {
          days: ["mon", "tue", "wed", "thu", "fri"],
          from: "09:00",
          to: "20:00",
          timezone: "callee",
        },
      },
    },
    calling: {
      rules: ["us"],
      caps: { per24h: 2 },
      callsPerMinute: 5,
      location: { fallbackTimezone: "America/Chicago" },
    },
  });
  const none = async () => new Set<string>();
  const read = await timeIt(async () => {
    const reader = await ContactFileReader.open(file, { defaultCountry: "US" });
    for await (const _ of reader);
  });
  let campaigns = 0;
  const planned = await timeIt(async () => {
    const at = Date.parse("2026-11-23T15:00:00Z");
    const facts = await gatherFacts(
      def,
      file,
      { suppressed: none, lastCalled: async () => new Map(), callTimes: async () => new Map() },
      at,
    );
    campaigns = planCampaigns(facts.contacts, planSettingsOf(def, at, at, undefined)).campaigns.length;
  });
  rmSync(dir, { recursive: true, force: true });
  const perRow = (ms: number) => (ms * 1000) / rows;
  const importPerRow = 1_000_000 / IMPORT_RATE;
  table([
    { step: "read the file (every import)", "µs/row": fmt(perRow(read), 1) },
    { step: "read + plan (calling rules)", "µs/row": fmt(perRow(planned), 1), campaigns },
    { step: "plan alone", "µs/row": fmt(perRow(planned - read), 1) },
    { step: `import at ${IMPORT_RATE} creates/s`, "µs/row": fmt(importPerRow, 0) },
  ]);
  console.log(
    `the plan adds ${fmt((100 * perRow(planned)) / importPerRow, 2)}% to an import's time per row at ${IMPORT_RATE} creates/s (${rows} rows)`,
  );
}
