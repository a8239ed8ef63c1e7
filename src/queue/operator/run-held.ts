import type { Queues } from "../queues.ts";

/** Delayed imports read at most: a pause holds a job's files, not thousands. */
const HELD_READ = 1_000;

/**
 * On resume: `job`'s imports held by its pause (each put back to wait a few seconds, then looked at
 * again) run now, not at the end of that wait. One delayed by a retry's backoff runs now as well
 * (the ledger makes an import's retry create nothing twice). Campaign creates are left to their
 * wait: one may be a create whose answer is unknown, waiting on purpose for a held copy to land
 * before it looks again (decision 0064); a pause's hold of a create ends within seconds anyway.
 */
export async function runHeld(queues: Pick<Queues, "imports">, job: string): Promise<void> {
  for (const held of await queues.imports.getDelayed(0, HELD_READ - 1)) {
    if (held.data.job !== job) continue;
    try {
      await held.promote();
    } catch {
      // Its wait ended meanwhile (a worker took it), or it was removed: nothing to move.
    }
  }
}
