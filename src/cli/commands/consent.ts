import { basename } from "node:path";
import { Command } from "commander";
import { maskPhonesIn } from "../../lib/mask-phone.ts";
import { revokeConsent } from "../../pipeline/consent/revoke-consent.ts";
import { createConsentStore } from "../../pipeline/stores/consent-store.ts";
import { readExtract } from "../../pipeline/stores/dnc/extract-reader.ts";
import { createSuppressionList } from "../../pipeline/stores/suppression.ts";
import { CliError } from "../cli-error.ts";
import { withRedis } from "../with-redis.ts";
import { e164 } from "./suppress.ts";
import { countryOption } from "./validate.ts";

/** The numbers of a revocation list (a number a line, or a CSV with a phone column), and its bad lines. */
async function numbersOf(file: string, country: string | undefined, column: string | undefined) {
  const phones: string[] = [];
  const bad: string[] = [];
  const code = countryOption(country);
  try {
    for await (const l of readExtract(file, {
      ...(code ? { country: code } : {}),
      ...(column ? { column } : {}),
    }))
      if ("phone" in l) phones.push(l.phone);
      else bad.push(`${file} line ${l.line}: ${maskPhonesIn(l.problem)}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new CliError(`${file}: no such file`, 1);
    throw error;
  }
  return { phones, bad };
}

function revokeCommand(): Command {
  return new Command("revoke")
    .description(
      "Revoke consent for numbers across every job at once (kept with the time received): the import, the audience and the check before each start leave them out",
    )
    .argument("[phones...]")
    .option("--file <csv>", "a revocation list: a number a line, or a CSV with a phone column")
    .option("--column <header>", "of a CSV with a header row: the phone column")
    .option("--country <code>", "country of numbers written without +country code", "US")
    .option("--json", "print one JSON object: revoked, at, bad lines")
    .action((given: string[], o) => {
      if (given.length === 0 && !o.file) throw new CliError("give the phones to revoke, or --file CSV");
      return withRedis(async ({ redis, keys }) => {
        const listed = o.file ? await numbersOf(o.file, o.country, o.column) : { phones: [], bad: [] };
        const phones = [...new Set([...e164(given, o.country), ...listed.phones])];
        const at = Date.now();
        const via = o.file ? `vcw consent revoke --file ${basename(o.file)}` : "vcw consent revoke";
        await revokeConsent(phones, at, via, {
          consent: createConsentStore(redis, keys),
          suppression: createSuppressionList(redis, keys),
        });
        const when = new Date(at).toISOString();
        if (o.json)
          process.stdout.write(`${JSON.stringify({ revoked: phones.length, at: when, bad: listed.bad })}\n`);
        else console.log(`${phones.length} revoked at ${when} (${via})`);
        for (const line of listed.bad) console.error(`not a number, left out: ${line}`);
        if (listed.bad.length > 0) process.exitCode = 1;
      });
    });
}

function showCommand(): Command {
  return new Command("show")
    .description(
      "What vcw keeps of numbers' consent: the consent relied on (kind, time, source, evidence) and any revocation",
    )
    .argument("<phones...>")
    .option("--country <code>", "country of numbers written without +country code", "US")
    .option("--json", "print one JSON object: number -> what is kept")
    .action((given: string[], o) =>
      withRedis(async ({ redis, keys }) => {
        const phones = e164(given, o.country);
        const kept = await createConsentStore(redis, keys).read(phones);
        if (o.json) {
          process.stdout.write(`${JSON.stringify(Object.fromEntries(kept))}\n`);
          return;
        }
        for (const phone of phones) {
          const k = kept.get(phone);
          const c = k?.consent;
          const consent = c
            ? `${c.kind} consent given ${new Date(c.givenAt).toISOString()} (file ${c.file} row ${c.row}${c.trustedForm ? `, TrustedForm ${c.trustedForm}` : ""}${c.leadId ? `, LeadiD ${c.leadId}` : ""})`
            : "no consent on record";
          const revoked = k?.revokedAt
            ? `; revoked ${new Date(k.revokedAt).toISOString()} (${k.revokedVia})`
            : "";
          console.log(`${phone}: ${consent}${revoked}`);
        }
      }),
    );
}

export function consentCommand(): Command {
  const command = new Command("consent").description(
    "Consent per number (read from contact files) and its revocations (docs/compliance.md)",
  );
  command.addCommand(revokeCommand());
  command.addCommand(showCommand());
  return command;
}
