import { Command } from "commander";
import Papa from "papaparse";
import { formulaSafe } from "../../lib/formula-safe.ts";
import { parseIsoUtc } from "../../lib/utc-date.ts";
import { AUDIT_COLUMNS, auditRow } from "../../pipeline/consent/audit-rows.ts";
import { CliError } from "../cli-error.ts";
import { withRedis } from "../with-redis.ts";
import { e164 } from "./suppress.ts";

const DAY_MS = 86_400_000;

/**
 * A bound of the period: a day (its first instant for --from, its last for --to: the day is
 * included), or an ISO date-time, UTC unless an offset is given. Anything else, or a day that does
 * not exist (2026-02-30), is refused naming the option and the value: no guess (review of issue 46).
 */
export function boundOf(text: string, option: "--from" | "--to"): number {
  const parsed = parseIsoUtc(text);
  if (!parsed)
    throw new CliError(
      `${option} "${text}" is not a date (2026-11-29, a whole UTC day) or an ISO date-time (2026-11-29T14:00:00Z; UTC without an offset)`,
    );
  return parsed.dateOnly && option === "--to" ? parsed.at + DAY_MS - 1 : parsed.at;
}

const csvLine = (cells: readonly string[]) => Papa.unparse([cells.map(formulaSafe)], { newline: "\r\n" });

export function auditCommand(): Command {
  const command = new Command("audit").description(
    "The audit trail: every contact called or refused, and the facts behind it (docs/compliance.md)",
  );
  command
    .command("export")
    .description("Every audit record of a period, oldest first, as CSV or JSON Lines on standard output")
    .requiredOption("--from <date>", "first day or instant (2026-11-29, 2026-11-29T14:00:00Z)")
    .requiredOption("--to <date>", "last day or instant")
    .option("--number <phone>", "only this number's records")
    .option("--country <code>", "country of a --number written without +country code", "US")
    .option("--format <format>", "csv or jsonl", "csv")
    .action((o) => {
      const from = boundOf(o.from, "--from");
      const to = boundOf(o.to, "--to");
      if (to < from) throw new CliError(`--to ${o.to} is before --from ${o.from}`);
      if (o.format !== "csv" && o.format !== "jsonl")
        throw new CliError(`--format must be csv or jsonl, not "${o.format}"`);
      const number = o.number ? e164([o.number], o.country)[0] : undefined;
      return withRedis(async ({ stores }) => {
        if (o.format === "csv") process.stdout.write(`\uFEFF${csvLine(AUDIT_COLUMNS)}\r\n`);
        for await (const entry of stores.audit.range(from, to)) {
          if (number && entry.phone !== number) continue;
          const line = o.format === "csv" ? `${csvLine(auditRow(entry))}\r\n` : `${JSON.stringify(entry)}\n`;
          if (!process.stdout.write(line)) await new Promise((r) => process.stdout.once("drain", r));
        }
      });
    });
  return command;
}
