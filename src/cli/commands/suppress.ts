import { Command } from "commander";
import { normalizePhone } from "../../ingest/phone.ts";
import { createSuppressionList } from "../../pipeline/stores/suppression.ts";
import { CliError } from "../cli-error.ts";
import { withRedis } from "../with-redis.ts";
import { countryOption } from "./validate.ts";

const withList = <T>(run: (list: ReturnType<typeof createSuppressionList>) => Promise<T>) =>
  withRedis(({ redis, keys }) => run(createSuppressionList(redis, keys)));

/** Phones as E.164; a number that isn't one is a usage error naming it. */
function e164(phones: string[], country: string | undefined): string[] {
  return phones.map((raw) => {
    const result = normalizePhone(raw, countryOption(country));
    if (!result.ok)
      throw new CliError(`"${raw}" is not a phone number (${result.code}); use +country format or --country`);
    return result.e164;
  });
}

export function suppressCommand(): Command {
  const command = new Command("suppress").description("The opt-out list: phones no import ever sends again");
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
    .argument("<phones...>")
    .option("--country <code>", "country of numbers written without +country code")
    .option("--json", "print one JSON object: removed")
    .action((phones: string[], o) =>
      withList(async (list) => {
        const removed = await list.remove(e164(phones, o.country));
        if (o.json) process.stdout.write(`${JSON.stringify({ removed })}\n`);
        else console.log(`${removed} removed`);
      }),
    );
  command
    .command("list")
    .option("--json", "print a JSON array")
    .action((o) =>
      withList(async (list) => {
        const phones = await list.list();
        if (o.json) process.stdout.write(`${JSON.stringify(phones)}\n`);
        else for (const p of phones) console.log(p);
      }),
    );
  return command;
}
