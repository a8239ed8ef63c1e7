import type { InboxStore } from "./inbox-store.ts";

/**
 * Ends a file's stay in `processing`: its error report, its summary, then the file itself go to
 * `done` or `rejected`. A summary found there names an error report that is there; the file moves
 * last, so a file found there is settled. Repeatable.
 */
export async function settleFile(
  inbox: InboxStore,
  name: string,
  outcome: "done" | "rejected",
  summary: object,
  errorsFile?: string,
): Promise<void> {
  if (errorsFile) await inbox.putFile(outcome, `${name}.errors.csv`, errorsFile);
  await inbox.writeText(outcome, `${name}.summary.json`, `${JSON.stringify(summary, null, 2)}\n`);
  await inbox.move("processing", name, outcome);
  await inbox.remove("processing", `${name}.errors.csv`);
}
