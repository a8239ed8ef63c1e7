import type { InboxStore } from "./inbox-store.ts";

/**
 * Ends a file's stay in `processing`: its summary, its error report, then the file itself go to
 * `done` or `rejected`. The file moves last, so a file found there is complete. Repeatable.
 */
export async function settleFile(
  inbox: InboxStore,
  name: string,
  outcome: "done" | "rejected",
  summary: object,
  errorsFile?: string,
): Promise<void> {
  await inbox.writeText(outcome, `${name}.summary.json`, `${JSON.stringify(summary, null, 2)}\n`);
  if (errorsFile) await inbox.putFile(outcome, `${name}.errors.csv`, errorsFile);
  await inbox.move("processing", name, outcome);
  await inbox.remove("processing", `${name}.errors.csv`);
}
