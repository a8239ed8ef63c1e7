import { Command } from "commander";
import { normalizePhone } from "../../ingest/phone.ts";
import { localTime } from "../../lib/zoned-time.ts";
import { CliError } from "../cli-error.ts";
import { jobReadingOptions } from "../job-options.ts";
import { withRedis } from "../with-redis.ts";
import { countryOption } from "./validate.ts";

/** `vcw contact +1...`: a number's call history across all jobs, whether it opted out, and its do-not-call list. */
export function contactCommand(): Command {
  return new Command("contact")
    .description("Show a number's call history (last call, campaign, attempts, outcome) and suppression")
    .argument("<phone>")
    .option("--country <code>", "country of a number written without +country code")
    .option("--job <name>", "read the number in this job's country")
    .option("--json", "print one JSON object")
    .action(async (raw: string, o) => {
      const country =
        countryOption(o.country) ?? (o.job ? (await jobReadingOptions(o.job)).defaultCountry : undefined);
      const parsed = normalizePhone(raw, country);
      if (!parsed.ok)
        throw new CliError(
          `"${raw}" is not a phone number (${parsed.code}); use +country format, --country or --job`,
        );
      await withRedis(async ({ stores }) => {
        const phone = parsed.e164;
        const history = await stores.history.get(phone);
        const { suppression } = stores;
        const optedOut = (await suppression.optedOut([phone])).size > 0;
        const doNotCall = (await suppression.doNotCall([phone])).get(phone);
        const suppressed = optedOut || doNotCall !== undefined;
        if (o.json) {
          const listed = doNotCall === undefined ? {} : { doNotCall };
          process.stdout.write(
            `${JSON.stringify({ phone, suppressed, ...listed, history: history ?? null })}\n`,
          );
          return;
        }
        console.log(phone);
        console.log(`  opted out  ${optedOut ? "yes (vcw suppress remove to call it again)" : "no"}`);
        if (doNotCall !== undefined) console.log(`  do-not-call list "${doNotCall}" (vcw suppress list)`);
        if (!history) {
          console.log("  calls      none known");
          return;
        }
        console.log(`  last call  ${localTime(history.lastAt)} (campaign ${history.campaign})`);
        console.log(`  campaigns  ${history.attempts}`);
        if (history.outcome)
          console.log(`  outcome    ${history.outcome} (${localTime(history.outcomeAt!)})`);
      });
    });
}
