import { randomBytes } from "node:crypto";
import { basename } from "node:path";
import { Command } from "commander";
import { findJob, loadJobs } from "../../config/load-jobs.ts";
import { logLevelOf } from "../../config/log-level.ts";
import { resolveSettings } from "../../config/settings.ts";
import { createLogger } from "../../daemon/logger.ts";
import { openServices } from "../../daemon/services.ts";
import { sha256File } from "../../inbox/drop-folder.ts";
import { reasonWords } from "../../ingest/reason-words.ts";
import { isVcwErrorReport } from "../../ingest/report-ownership.ts";
import { fileExists } from "../../lib/file-exists.ts";
import { localTime } from "../../lib/zoned-time.ts";
import { type ImportedFile, type ImportSpec, importSpecOf } from "../../pipeline/import/import-use-case.ts";
import { CliError } from "../cli-error.ts";
import { rowProgress } from "../progress-bar.ts";
import { countryOption } from "./validate.ts";

export function importCommand(): Command {
  return new Command("import")
    .description("Import one CSV file in the foreground, exactly once, and print its summary")
    .argument("<file>", "CSV file")
    .option("--job <name>", "use this job definition's segment and reading options")
    .option("--segment <name>", "import into this segment (found by name, or created)")
    .option("--country <code>", "country of phone numbers written without +country code (with --segment)")
    .option(
      "--sheet <name|n>",
      "sheet of an .xlsx workbook, by name or position (default: the job's, else the first)",
    )
    .option("--json", "print the summary as one JSON object")
    .option("--errors <file>", "where to write the error report (default: FILE.errors.csv)")
    .option(
      "--force",
      "import even if the same content was imported before; overwrite a file at the report's path that vcw did not write",
    )
    .action(async (file: string, o) => {
      if (!o.job === !o.segment) throw new CliError("give either --job NAME or --segment NAME");
      const settings = resolveSettings();
      const logger = createLogger({ level: logLevelOf(process.env, "warn") });
      const services = await openServices(settings, logger, { embeddedSimulator: true, daemon: false });
      try {
        let spec: ImportSpec;
        if (o.job) {
          const def = services.jobs.get(o.job);
          if (!def) {
            // Say which file holds the job and what is wrong in it, when it is there but invalid.
            const dir = settings.jobsDir.value;
            const found = findJob(await loadJobs(dir), o.job, dir);
            throw new CliError("error" in found ? found.error : `job "${o.job}" could not be loaded`);
          }
          spec = importSpecOf(def);
          if (o.sheet) spec = { ...spec, ingest: { ...spec.ingest, sheet: o.sheet } };
        } else {
          const defaultCountry = countryOption(o.country) as ImportSpec["ingest"]["defaultCountry"];
          spec = {
            segment: { name: o.segment as string },
            ingest: { defaultCountry, ...(o.sheet ? { sheet: o.sheet } : {}) },
            concurrency: 8,
            recallAfterMs: 0,
            // An ad-hoc segment calls nobody: consent columns are kept, nothing is required.
            consent: { require: "none" },
          };
        }
        const errorsPath = o.errors ?? `${file}.errors.csv`;
        // A report vcw wrote (an earlier run's) is replaced; a file of anyone else is never overwritten.
        if (!o.force && (await fileExists(errorsPath)) && !(await isVcwErrorReport(errorsPath)))
          throw new CliError(
            `${errorsPath} already exists and was not written by vcw: give --errors PATH for the new report, or --force to overwrite it`,
          );
        const sha256 = await sha256File(file).catch(() => {
          throw new CliError(`${file}: no such file`, 1);
        });
        if (spec.job && !o.force) {
          const seen = await services.imports.imported(spec.job, sha256);
          if (seen) {
            report(o.json, { status: "duplicate", file, sha256, duplicateOf: seen.file, at: seen.at });
            return;
          }
        }
        const progress = await rowProgress(file, {
          enabled: o.json !== true,
          label: basename(file),
          counts: ["created", "known"],
        });
        const importing = services.imports.run({
          spec,
          path: file,
          sha256,
          original: basename(file),
          admittedAt: Date.now(),
          owner: `cli-${randomBytes(6).toString("hex")}`,
          errorsPath,
          checkpoint: async (at) => progress.update(at.rowsRead, { created: at.created, known: at.known }),
          checkpointMs: 200,
        });
        const result = await progress.until(importing, (r) => r.totals.total);
        report(o.json, { status: "imported", file, sha256, ...result });
      } finally {
        await services.close();
      }
    });
}

type Report =
  | ({ status: "imported"; file: string; sha256: string } & ImportedFile)
  | { status: "duplicate"; file: string; sha256: string; duplicateOf: string; at: string };

function report(json: boolean | undefined, s: Report): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(s)}\n`);
    return;
  }
  if (s.status === "duplicate") {
    console.log(
      `${s.file}: the same content was imported before (${s.duplicateOf}, ${localTime(s.at)}); nothing to do`,
    );
    return;
  }
  const t = s.totals;
  console.log(`${s.file} -> segment ${s.segment.name ?? ""} (${s.segment.id})`);
  console.log(
    `  rows      ${t.total} = ${t.valid} valid + ${t.rejected} rejected + ${t.duplicates} duplicate + ${t.skipped} skipped`,
  );
  console.log(
    `  contacts  ${s.created} created, ${s.known} already there, ${s.elsewhere} by another import, ${s.failed} refused by the service`,
  );
  if (s.topErrors.length)
    console.log(`  top issues ${s.topErrors.map((e) => `${reasonWords(e.code)} (${e.rows})`).join(", ")}`);
  if (s.errorsFile) console.log(`  error report: ${s.errorsFile}`);
}
