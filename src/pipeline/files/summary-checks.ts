import type { JobDefinition } from "../../config/job-definition.ts";
import type { FileRegistry } from "../../inbox/file-registry.ts";
import type { InboxStores } from "../../inbox/inbox-store.ts";
import type { StartCheck } from "../campaign/start-check.ts";
import type { StartCheckStore } from "../stores/start-check-store.ts";
import type { ChecksBeforeStart, ImportSummary } from "./import-outcome.ts";

type StartCheckResult = StartCheck["result"];

/** Pure: the summary's checks with `name`'s result put in (replacing an earlier one), totals recounted. */
export function withCheck(
  before: ChecksBeforeStart | undefined,
  name: string,
  result: StartCheckResult,
): ChecksBeforeStart {
  const campaigns = [...(before?.campaigns ?? []).filter((c) => c.name !== name), { name, ...result }];
  const sum = (f: (c: StartCheckResult) => number) => campaigns.reduce((n, c) => n + f(c), 0);
  return {
    duplicatesRemoved: sum((c) => c.duplicatesRemoved),
    campaignsRepaired: sum((c) => c.campaignsRepaired),
    withdrawn: sum((c) => c.withdrawn),
    copiesAdopted: sum((c) => c.copiesAdopted ?? 0),
    adoptedAfterCheck: sum((c) => c.adoptedAfterCheck ?? 0),
    calledTwice: sum((c) => c.calledTwice ?? 0),
    campaigns,
  };
}

export interface SummaryChecksDeps {
  startChecks: Pick<StartCheckStore, "noting">;
  registry: Pick<FileRegistry, "get">;
  inboxes: InboxStores;
}

/**
 * Writes a campaign's check into its file's `<file>.summary.json` in done/, one writer at a time.
 * `not-yet` when the file is not settled yet (its campaign was checked before its summary was
 * written): the caller tries again; `no-summary` when it never will be (rejected, forgotten).
 */
export async function noteCheckInSummary(
  def: JobDefinition,
  info: Pick<StartCheck["info"], "job" | "sha256" | "gen" | "name">,
  result: StartCheckResult,
  d: SummaryChecksDeps,
): Promise<"noted" | "not-yet" | "no-summary"> {
  const record = await d.registry.get(info.job, info.sha256);
  if (!record || record.gen !== info.gen || record.state === "rejected") return "no-summary";
  if (record.state !== "done") return "not-yet";
  const inbox = d.inboxes(def.inbox);
  const name = `${record.file}.summary.json`;
  const locked = await d.startChecks.noting(info.job, info.sha256, async () => {
    const text = await inbox.readText("done", name);
    if (!text) return "no-summary" as const;
    const summary = JSON.parse(text) as ImportSummary;
    summary.checksBeforeStart = withCheck(summary.checksBeforeStart, info.name, result);
    await inbox.writeText("done", name, `${JSON.stringify(summary, null, 2)}\n`);
    return "noted" as const;
  });
  return locked.acquired ? locked.value : "not-yet";
}
