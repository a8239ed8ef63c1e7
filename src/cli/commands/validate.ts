import { basename, isAbsolute, relative, resolve } from "node:path";
import { Command, Option } from "commander";
import { jobsDir } from "../../config/folders.ts";
import {
  type ExplicitMapping,
  isCountryCode,
  type ValidationSummary,
  validateFile,
} from "../../ingest/index.ts";
import { reasonWords } from "../../ingest/reason-words.ts";
import { counted } from "../../lib/plural.ts";
import { CliError } from "../cli-error.ts";
import { describeCountry, jobReadingOptions } from "../job-options.ts";
import { positive } from "../options.ts";
import { rowProgress } from "../progress-bar.ts";
import { packageFile } from "../version.ts";

/** `--map phone=Mobile --map first_name="Given name"` as an explicit mapping. */
export function parseMapping(pairs: string[]): ExplicitMapping {
  const mapping: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new CliError(`--map takes field=Column, got "${pair}"`);
    mapping[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return mapping as ExplicitMapping;
}

export function countryOption(value: string | undefined) {
  if (value === undefined) return undefined;
  const code = value.toUpperCase();
  if (!isCountryCode(code))
    throw new CliError(`--country must be a two-letter country code such as US or GB, got "${value}"`);
  return code;
}

const SHOW_DELIMITER: Record<string, string> = { ",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe" };
const SHOW_LINEBREAK: Record<string, string> = { "\n": "LF", "\r\n": "CRLF", "\r": "CR" };

/** A label, then lines: the first beside the label, the others under it. */
function block(out: (line: string) => void, label: string, lines: string[]): void {
  for (const [i, line] of lines.entries()) out(`  ${(i === 0 ? label : "").padEnd(10)} ${line}`);
}

export function printSummary(s: ValidationSummary, out: (line: string) => void = console.log): void {
  out(`${s.file}`);
  if (s.format === "xlsx") {
    const others = s.sheets.length > 1 ? ` (sheets: ${s.sheets.map((n) => `"${n}"`).join(", ")})` : "";
    out(`  sheet      "${s.sheet}" of an Excel workbook${others}`);
  } else {
    out(`  encoding   ${s.encoding}${s.bom ? " (with BOM)" : ""}`);
    out(
      `  delimiter  ${SHOW_DELIMITER[s.delimiter] ?? JSON.stringify(s.delimiter)}, line ends ${SHOW_LINEBREAK[s.linebreak] ?? "?"}`,
    );
  }
  if (s.preambleLines)
    out(`  header     line ${s.headerLine}; ${counted(s.preambleLines, "line")} above it skipped`);
  out(
    `  columns    ${Object.entries(s.columns)
      .map(([field, header]) => `${header} -> ${field}`)
      .join(", ")}`,
  );
  const width = Math.max(...s.mapping.map((n) => (n.field ?? "").length));
  block(
    out,
    "why",
    s.mapping.map((n) => `${(n.field ?? "").padEnd(width)} <- "${n.header}": ${n.why}`),
  );
  if (s.unknownColumns.length) out(`  not sent   ${s.unknownColumns.join(", ")}`);
  block(
    out,
    "ignored",
    s.ignoredColumns.map((n) => `"${n.header}": ${n.why}`),
  );
  out(
    `  rows       ${s.total} = ${s.valid} valid + ${s.rejected} rejected + ${s.duplicates} duplicate + ${s.skipped} skipped`,
  );
  if (s.blankLines) out(`  blank lines ignored: ${s.blankLines}`);
  if (s.footerLines) out(`  report footer and summary lines ignored: ${s.footerLines}`);
  if (s.topErrors.length)
    out(`  top issues ${s.topErrors.map((e) => `${reasonWords(e.code)} (${e.rows})`).join(", ")}`);
  if (s.errorsFile) out(`  error report: ${s.errorsFile}`);
}

/**
 * Where the error report goes without --errors: beside the file, unless the file is in a folder of
 * job definitions (the jobs folder in force, or the package's own `jobs/` with its sample): that is
 * configuration, read-only in the image and shipped by `npm pack`, so the report goes to the current
 * folder instead, and the summary says where.
 */
export function defaultReportPath(file: string): string {
  const path = resolve(file);
  // The jobs folder as `vcw jobs check` reads it: a dry run fails on no unrelated setting.
  const definitions = [jobsDir(), packageFile("jobs")].map((d) => resolve(d));
  const inside = definitions.some(
    (dir) => !relative(dir, path).startsWith("..") && !isAbsolute(relative(dir, path)),
  );
  return inside ? `${basename(file)}.errors.csv` : `${file}.errors.csv`;
}

export function validateCommand(): Command {
  return new Command("validate")
    .description(
      "Dry run: read a contacts file (CSV or .xlsx), write its error report, print a summary (no network)",
    )
    .argument("<file>", "CSV file or Excel workbook (.xlsx)")
    .option("--country <code>", "country of phone numbers written without +country code, e.g. US")
    .option("--job <name>", "read as this job does: its country, mapping, sheet and limits (flags override)")
    .option("--json", "print the summary as one JSON object")
    .option(
      "--errors <out.csv>",
      "where to write the error report (default: <file>.errors.csv, when there are errors; in the current folder for a file in jobs/)",
    )
    .option("--map <field=Column...>", "map a column to a contact field explicitly (repeatable)")
    .option(
      "--sheet <name|n>",
      "sheet of an .xlsx workbook to read, by name or position (default: the first)",
    )
    .addOption(
      new Option("--email-policy <policy>", "an invalid e-mail rejects the row or is dropped")
        .choices(["reject", "drop"])
        .default("reject"),
    )
    .option("--max-rows <n>", "most data rows accepted", positive)
    .option("--max-bytes <n>", "largest file accepted", positive)
    .action(async (file: string, o, command: Command) => {
      const job = o.job ? await jobReadingOptions(o.job) : {};
      const defaultCountry = countryOption(o.country) ?? job.defaultCountry;
      const progress = await rowProgress(file, { enabled: o.json !== true, label: "validating" });
      const validating = validateFile(
        file,
        {
          ...job,
          defaultCountry,
          mapping: { ...job.mapping, ...parseMapping(o.map ?? []) },
          ...(command.getOptionValueSource("emailPolicy") === "default" && job.emailPolicy
            ? {}
            : { emailPolicy: o.emailPolicy }),
          ...(o.sheet !== undefined ? { sheet: o.sheet } : {}),
          ...(o.maxRows ? { maxRows: o.maxRows } : {}),
          ...(o.maxBytes ? { maxFileBytes: o.maxBytes } : {}),
        },
        {
          ...(o.errors
            ? { errorsPath: o.errors, alwaysWriteReport: true }
            : { errorsPath: defaultReportPath(file) }),
          onProgress: progress.update,
        },
      );
      const summary = await progress.until(validating, (s) => s.total);
      const country = {
        code: defaultCountry ?? null,
        from: o.country ? "--country" : o.job ? `job ${o.job}` : null,
      };
      if (o.json) process.stdout.write(`${JSON.stringify({ ...summary, country })}\n`);
      else {
        printSummary(summary);
        console.log(
          `  country    ${describeCountry(defaultCountry, o.country ? "--country" : `job ${o.job}`)}`,
        );
      }
    });
}
