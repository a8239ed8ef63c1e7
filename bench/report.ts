/**
 * `npm run bench -- report [--campaigns N] [--contacts M] [--json]`: time and peak RSS to build a
 * 7-day report over N campaigns of M contacts (default 1,000 of 100), in a process of its own
 * (`report-run.ts`), against the bare reads the report makes (ours vs base), and the size of its e-mail.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { fmt, table } from "./lib.ts";
import type { ReportRun } from "./report-run.ts";

export async function run(argv: string[] = []): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { campaigns: { type: "string" }, contacts: { type: "string" }, json: { type: "boolean" } },
    strict: false,
  });
  const campaigns = Number(values.campaigns ?? 1000);
  const contacts = Number(values.contacts ?? 100);
  const child = fork(
    fileURLToPath(new URL("./report-run.js", import.meta.url)),
    [String(campaigns), String(contacts)],
    {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    },
  );
  const r = await new Promise<ReportRun>((resolve, reject) => {
    child.once("message", (m) => resolve(m as ReportRun));
    child.once("exit", (code) => reject(new Error(`the report run exited with ${code}`)));
  });
  if (values.json) return console.log(JSON.stringify(r));
  console.log(
    `7-day report over ${fmt(r.campaigns)} campaigns of ${fmt(r.contacts)} contacts (${fmt(r.calls)} calls)`,
  );
  table([
    { step: "bare reads (meta, transitions, records)", ms: fmt(r.msBare), "/ bare": "1.00" },
    { step: "build the report (reads + model)", ms: fmt(r.msBuild), "/ bare": fmt(r.msBuild / r.msBare, 2) },
    { step: "e-mail (charts, PNGs, MIME)", ms: fmt(r.msEmail), "/ bare": "" },
  ]);
  console.log(
    `RSS before ${fmt(r.rssBeforeMb, 1)} MB, peak ${fmt(r.peakRssMb, 1)} MB; e-mail ${fmt(r.emailBytes / 1024, 1)} KB; event loop held at most ${fmt(r.loopMaxMs, 1)} ms while building`,
  );
}
