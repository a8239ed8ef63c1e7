import { basename } from "node:path";
import { Command } from "commander";
import { PHONE_BATCH } from "../../lib/chunks.ts";
import { maskPhonesIn } from "../../lib/mask-phone.ts";
import { revokeConsent } from "../../pipeline/consent/revoke-consent.ts";
import { readExtract } from "../../pipeline/stores/dnc/extract-reader.ts";
import { CliError } from "../cli-error.ts";
import { withRedis } from "../with-redis.ts";
import { e164 } from "./suppress.ts";
import { countryOption } from "./validate.ts";

/** Bad lines of a revocation list named one by one; past these, only counted (memory stays bounded). */
const BAD_SHOWN = 100;

/**
 * Revokes the numbers of a revocation list (a number a line, or a CSV with a phone column) as it is
 * read, 1,000 at a time: memory stays bounded whatever the file's size. Its first bad lines are
 * kept, the rest counted.
 */
async function revokeListed(
  file: string,
  o: { country?: string; column?: string },
  revoke: (phones: string[]) => Promise<void>,
) {
  const bad: string[] = [];
  let badNotShown = 0;
  let revoked = 0;
  let batch = new Set<string>();
  const flush = async () => {
    if (batch.size === 0) return;
    await revoke([...batch]);
    revoked += batch.size;
    batch = new Set();
  };
  const code = countryOption(o.country);
  try {
    for await (const l of readExtract(file, {
      ...(code ? { country: code } : {}),
      ...(o.column ? { column: o.column } : {}),
    })) {
      if ("phone" in l) {
        batch.add(l.phone);
        if (batch.size >= PHONE_BATCH) await flush();
      } else if (bad.length < BAD_SHOWN) bad.push(`${file} line ${l.line}: ${maskPhonesIn(l.problem)}`);
      else badNotShown += 1;
    }
    await flush();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new CliError(`${file}: no such file`, 1);
    if (revoked === 0) throw error;
    throw new CliError(
      `${maskPhonesIn((error as Error).message)} (${revoked} numbers read before it are revoked and suppressed)`,
      1,
    );
  }
  return { revoked, bad, badNotShown };
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
    .option("--json", "print one JSON object: revoked, at, bad lines (the first 100) and badNotShown")
    .action((given: string[], o) => {
      if (given.length === 0 && !o.file) throw new CliError("give the phones to revoke, or --file CSV");
      const phones = [...new Set(e164(given, o.country))];
      return withRedis(async ({ stores }) => {
        const at = Date.now();
        const via = o.file ? `vcw consent revoke --file ${basename(o.file)}` : "vcw consent revoke";
        const deps = {
          consent: stores.consent,
          suppression: stores.suppression,
        };
        const revoke = (batch: string[]) => revokeConsent(batch, at, via, deps);
        await revoke(phones);
        const listed = o.file
          ? await revokeListed(o.file, o, revoke)
          : { revoked: 0, bad: [], badNotShown: 0 };
        const revoked = phones.length + listed.revoked;
        const when = new Date(at).toISOString();
        if (o.json)
          process.stdout.write(
            `${JSON.stringify({ revoked, at: when, bad: listed.bad, badNotShown: listed.badNotShown })}\n`,
          );
        else console.log(`${revoked} revoked at ${when} (${via})`);
        for (const line of listed.bad) console.error(`not a number, left out: ${line}`);
        if (listed.badNotShown > 0)
          console.error(`and ${listed.badNotShown} more bad lines, left out (not shown)`);
        if (listed.bad.length > 0) process.exitCode = 1;
      });
    });
}

function showCommand(): Command {
  return new Command("show")
    .description(
      "What vcw keeps of numbers' consent: each seller's newest consent of each kind (time, source, evidence) and any revocation",
    )
    .argument("<phones...>")
    .option("--country <code>", "country of numbers written without +country code", "US")
    .option("--json", "print one JSON object: number -> what is kept")
    .action((given: string[], o) =>
      withRedis(async ({ stores }) => {
        const phones = e164(given, o.country);
        const kept = await stores.consent.read(phones);
        if (o.json) {
          process.stdout.write(`${JSON.stringify(Object.fromEntries(kept))}\n`);
          return;
        }
        for (const phone of phones) {
          const k = kept.get(phone);
          const given = (k?.consents ?? []).map(
            (c) =>
              `${c.kind} consent ${c.seller ? `for ${c.seller}` : "naming no seller"} given ${new Date(c.givenAt).toISOString()} (file ${c.file} row ${c.row}${c.trustedForm ? `, TrustedForm ${c.trustedForm}` : ""}${c.leadId ? `, LeadiD ${c.leadId}` : ""})`,
          );
          const consent = given.length > 0 ? given.join("; ") : "no consent on record";
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
