import { basename } from "node:path";
import { Command } from "commander";
import { normalizePhone } from "../../ingest/phone.ts";
import { maskPhonesIn } from "../../lib/mask-phone.ts";
import { DoNotCallImportError } from "../../pipeline/stores/dnc/errors.ts";
import { readExtract } from "../../pipeline/stores/dnc/extract-reader.ts";
import { ageText, type DoNotCallList, isExpired, parseExpiry } from "../../pipeline/stores/dnc/list-facts.ts";
import type { LoadedList } from "../../pipeline/stores/dnc/load-list.ts";
import type { createSuppressionList } from "../../pipeline/stores/suppression.ts";
import { CliError } from "../cli-error.ts";
import { withRedis } from "../with-redis.ts";
import { countryOption } from "./validate.ts";

const withList = <T>(run: (list: ReturnType<typeof createSuppressionList>) => Promise<T>) =>
  withRedis(({ stores }) => run(stores.suppression));

/** Phones as E.164; a number that isn't one is a usage error naming it. */
export function e164(phones: string[], country: string | undefined): string[] {
  return phones.map((raw) => {
    const result = normalizePhone(raw, countryOption(country));
    if (!result.ok)
      throw new CliError(`"${raw}" is not a phone number (${result.code}); use +country format or --country`);
    return result.e164;
  });
}

const num = (n: number) => n.toLocaleString("en-US");

/** One line of `vcw suppress list` for a do-not-call list. */
function listLine(l: DoNotCallList, now: number): string {
  const expiry =
    l.expiresAt === undefined
      ? "never expires"
      : isExpired(l, now)
        ? `EXPIRED ${ageText(now - l.expiresAt)} ago (still suppresses; import a fresh extract)`
        : `expires in ${ageText(l.expiresAt - now)}`;
  return `  ${l.source.padEnd(16)} ${num(l.numbers).padStart(12)} numbers  imported ${ageText(now - l.importedAt)} ago from ${l.file}  ${expiry}`;
}

function printLoaded(r: LoadedList, path: string): void {
  const { list } = r;
  const invalid =
    list.invalid === 0
      ? ""
      : `; ${num(list.invalid)} lines no number, left out (${r.invalidExamples
          .map((e) => `line ${e.line}: ${maskPhonesIn(e.problem)}`)
          .join("; ")})`;
  console.log(`${list.source}: ${num(list.numbers)} numbers from ${path} (${num(r.lines)} lines${invalid})`);
  console.log(
    r.replaced
      ? `  in force now, replacing ${num(r.replaced.numbers)} numbers imported ${ageText(list.importedAt - r.replaced.importedAt)} before from ${r.replaced.file}`
      : "  in force now",
  );
  console.log(
    list.expiresAt === undefined
      ? "  never expires"
      : `  expires ${new Date(list.expiresAt).toISOString().slice(0, 10)} (import a fresh extract before then)`,
  );
}

function importCommand(): Command {
  return new Command("import")
    .description(
      "Load a do-not-call extract (FTC flat file, a number a line, or a CSV with a phone column) as one source's list, replacing its last import whole",
    )
    .argument("<file>")
    .requiredOption("--source <name>", "the list's name (ftc, state-fl...): a re-import of it replaces it")
    .option(
      "--expires <age>",
      "due for a fresh extract after this long: 31d (US rules), 12h, or never",
      "31d",
    )
    .option("--country <code>", "country of numbers written without +country code", "US")
    .option("--column <header>", "of a CSV with a header row: the phone column")
    .option(
      "--max-invalid <share>",
      "share of lines that may be no number before the import is refused",
      "0.01",
    )
    .option("--json", "print one JSON object: the list in force, the one it replaced, lines, first bad lines")
    .action((file: string, o) => {
      let expiresInMs: number | undefined;
      try {
        expiresInMs = parseExpiry(o.expires);
      } catch (error) {
        throw new CliError(`--expires: ${(error as Error).message}`);
      }
      const maxInvalidShare = Number(o.maxInvalid);
      if (!(maxInvalidShare >= 0 && maxInvalidShare <= 1))
        throw new CliError("--max-invalid must be between 0 and 1");
      const country = countryOption(o.country);
      return withRedis(async ({ stores }) => {
        const lines = readExtract(file, {
          ...(country ? { country } : {}),
          ...(o.column ? { column: o.column } : {}),
        });
        const progress = process.stderr.isTTY
          ? (n: number) => process.stderr.write(`\r${num(n)} lines read`)
          : undefined;
        try {
          const loaded = await stores.loadDoNotCall(lines, {
            source: o.source,
            file: basename(file),
            expiresInMs,
            maxInvalidShare,
            ...(progress ? { onProgress: progress } : {}),
          });
          if (progress) process.stderr.write("\n");
          if (o.json) process.stdout.write(`${JSON.stringify(loaded)}\n`);
          else printLoaded(loaded, file);
        } catch (error) {
          if (error instanceof DoNotCallImportError) throw new CliError(maskPhonesIn(error.message), 1);
          if ((error as NodeJS.ErrnoException).code === "ENOENT")
            throw new CliError(`${file}: no such file`, 1);
          throw error;
        }
        const now = Date.now();
        const lists = await stores.suppression.lists.lists();
        for (const l of lists.filter((x) => isExpired(x, now)))
          console.error(`warning: ${listLine(l, now).trim()}`);
      });
    });
}

export function suppressCommand(): Command {
  const command = new Command("suppress").description(
    "Numbers never called: the opt-out list, and do-not-call lists (vcw suppress import)",
  );
  command
    .command("add")
    .argument("<phones...>")
    .option("--country <code>", "country of numbers written without +country code")
    .option("--json", "print one JSON object: added, already")
    .action((phones: string[], o) =>
      withList(async (list) => {
        const added = await list.add(e164(phones, o.country));
        if (o.json) process.stdout.write(`${JSON.stringify({ added, already: phones.length - added })}\n`);
        else console.log(`${added} added (${phones.length - added} already there)`);
      }),
    );
  command
    .command("remove")
    .description("Take phones off the opt-out list, or (--source) a do-not-call list out of force")
    .argument("[phones...]")
    .option("--country <code>", "country of numbers written without +country code")
    .option("--source <name>", "the do-not-call list to take out of force and delete")
    .option("--json", "print one JSON object: removed")
    .action((phones: string[], o) =>
      withList(async (list) => {
        if (o.source) {
          if (phones.length > 0) throw new CliError("give phones or --source, not both");
          if (!(await list.lists.remove(o.source)))
            throw new CliError(`no do-not-call list "${o.source}"`, 1);
          console.log(`do-not-call list "${o.source}" removed`);
          return;
        }
        if (phones.length === 0) throw new CliError("give the phones to remove, or --source NAME");
        const removed = await list.remove(e164(phones, o.country));
        if (o.json) process.stdout.write(`${JSON.stringify({ removed })}\n`);
        else console.log(`${removed} removed`);
      }),
    );
  command
    .command("list")
    .description("The opted-out phones, after the do-not-call lists in force (source, numbers, age, expiry)")
    .option(
      "--json",
      "print a JSON array (of the opted-out phones; with --sources, of the do-not-call lists)",
    )
    .option("--sources", "only the do-not-call lists")
    .action((o) =>
      withList(async (list) => {
        const lists = await list.lists.lists();
        if (o.sources) {
          if (o.json) process.stdout.write(`${JSON.stringify(lists)}\n`);
          else for (const l of lists) console.log(listLine(l, Date.now()).trim());
          return;
        }
        const phones = await list.list();
        if (o.json) {
          process.stdout.write(`${JSON.stringify(phones)}\n`);
          return;
        }
        if (lists.length > 0) {
          console.log("do-not-call lists:");
          for (const l of lists) console.log(listLine(l, Date.now()));
          console.log(`opted out (${phones.length}):`);
        }
        for (const p of phones) console.log(lists.length > 0 ? `  ${p}` : p);
      }),
    );
  command.addCommand(importCommand());
  return command;
}
