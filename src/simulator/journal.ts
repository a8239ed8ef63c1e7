import type { Change } from "./store.ts";

/** The journal holds one change per line, in the order they were applied. */
export const journalLine = (change: Change) => `${JSON.stringify(change)}\n`;

/**
 * The changes in a journal's text. A last line without its newline was cut short by a crash: its
 * write never finished, so no response depended on it, and it is left out (`torn`). Any other
 * unreadable line is an error: the file is not a journal this code wrote.
 */
export function parseJournal(text: string, source = "the journal"): { changes: Change[]; torn: boolean } {
  const complete = text.lastIndexOf("\n") + 1;
  const lines = text.slice(0, complete).split("\n");
  lines.pop(); // after the last newline
  const changes = lines.map((line, index) => {
    let change: Partial<Change> | undefined;
    try {
      change = JSON.parse(line) as Partial<Change>;
    } catch {
      // reported below
    }
    if (typeof change?.seq !== "number" || typeof change.op !== "string") {
      throw new Error(`Cannot read line ${index + 1} of ${source}: not a change`);
    }
    return change as Change;
  });
  return { changes, torn: complete < text.length };
}
