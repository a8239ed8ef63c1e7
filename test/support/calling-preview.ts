import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { JobDefinition } from "../../src/config/job-definition.ts";
import { type PreviewReport, previewFile } from "../../src/pipeline/calling/preview.ts";
import { tempDir } from "./files.ts";

/** A row of a contacts file with location columns: the phone, and its State and Time Zone cells. */
export interface LocatedRow {
  phone: string;
  region?: string | undefined;
  timezone?: string | undefined;
}

const ALL_DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;

/**
 * The rows as a CSV file previewed as `vcw preview` does (the import's reader, the location
 * columns, the one planner, nothing read from Redis), for a job under the `us` rules that starts
 * asap or has `window` every day in the callee's zone, paced at 10 calls a minute.
 */
export async function previewUsRows(
  rows: readonly LocatedRow[],
  window: readonly [string, string] | undefined,
  at: number,
): Promise<PreviewReport> {
  const dir = tempDir("vcw-located-");
  const lines = rows.map((r, i) => `C${i},${r.phone},"${r.region ?? ""}","${r.timezone ?? ""}"`);
  writeFileSync(join(dir, "f.csv"), `First Name,Phone,State,Time Zone\n${lines.join("\n")}\n`);
  const def = JobDefinition.parse({
    name: "located",
    inbox: dir,
    segment: { name: "located" },
    contacts: { country: "US" },
    campaign: {
      assistant: { id: "a" },
      dialer: { id: "d" },
      start: window
        ? { window: { days: ALL_DAYS, from: window[0], to: window[1], timezone: "callee" } }
        : "asap",
    },
    calling: { rules: ["us"], location: { fallbackTimezone: "America/Chicago" }, callsPerMinute: 10 },
  });
  const none = async () => new Set<string>();
  const empty = async () => new Map();
  return previewFile(
    def,
    join(dir, "f.csv"),
    { suppressed: none, lastCalled: empty, callTimes: empty, pace: async () => undefined },
    at,
  );
}
