import type { Queues } from "../queues.ts";

/** Delayed jobs read at most per queue: a pause holds a job's files and campaigns, not thousands. */
const HELD_READ = 1_000;

/**
 * On resume: `job`'s imports and campaign creates held by its pause (each put back to wait a few
 * seconds, then looked at again) run now, not at the end of that wait. A job delayed by a retry's
 * backoff is run now as well: the operator resumed it. Returns how many were moved to run.
 */
export async function runHeld(queues: Pick<Queues, "imports" | "campaigns">, job: string): Promise<number> {
  let moved = 0;
  for (const queue of [queues.imports, queues.campaigns] as const) {
    for (const held of await queue.getDelayed(0, HELD_READ - 1)) {
      if (held.data.job !== job) continue;
      try {
        await held.promote();
        moved += 1;
      } catch {
        // Its wait ended meanwhile (a worker took it), or it was removed: nothing to move.
      }
    }
  }
  return moved;
}
