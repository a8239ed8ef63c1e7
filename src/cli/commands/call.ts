import { Command } from "commander";
import { maskPhone } from "../../lib/mask-phone.ts";
import type { ResourceState } from "../../pipeline/stores/resource-state.ts";
import { CliError } from "../cli-error.ts";
import { withServices } from "./resource-services.ts";

const collect = (value: string, previous: string[]) => [...previous, value];

export function callCommand(): Command {
  return new Command("call")
    .description("Place a playground test call with an applied assistant (vcw apply) to your own number")
    .argument("<assistant>", "the assistant's resource name in resources/")
    .requiredOption(
      "--to <number>",
      "E.164 number to call, such as +14155550123 (repeat for more)",
      collect,
      [],
    )
    .option("--dialer <name>", "the dialer's resource name (default: the only applied dialer)")
    .option("--first-name <name>", "first name the assistant greets", "vcw test")
    .option("--json", "print the playground call as JSON")
    .action(async (assistant: string, o) => {
      await withServices(async (s) => {
        const state = s.stores.resources;
        const assistantId = await state.currentId("assistant", assistant);
        const dialer = o.dialer ?? (await onlyDialer(state));
        const dialerId = await state.currentId("dialer", dialer);
        const call = await s.client.playground.call({
          first_name: o.firstName,
          phone_number: o.to,
          assistant_id: assistantId,
          dialer_id: dialerId,
        });
        if (o.json) process.stdout.write(`${JSON.stringify(call, null, 2)}\n`);
        else
          console.log(
            `test call placed${call.id ? ` (${call.id})` : ""}: assistant ${assistant} (${assistantId}) via dialer ${dialer} to ${(o.to as string[]).map(maskPhone).join(", ")}`,
          );
      });
    });
}

async function onlyDialer(state: Pick<ResourceState, "all">): Promise<string> {
  const dialers = [...(await state.all()).values()]
    .filter((r) => r.kind === "dialer" && r.id)
    .map((r) => r.name);
  if (dialers.length === 1) return dialers[0]!;
  throw new CliError(
    dialers.length === 0
      ? "no dialer has been applied: declare one in resources/ and run vcw apply"
      : `give --dialer NAME (applied dialers: ${dialers.join(", ")})`,
  );
}
