import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The queue job the running code works for, and whether it still holds that job's lock. Every
 * fenced send asks it before it leaves (api/send-fence.ts), so a job whose lock was lost (a pause
 * past it, a stall) sends nothing more, whichever processor runs it: one check, not one per queue.
 */
export interface JobHold {
  /** What it is, for messages: `job campaign:42`. */
  what: string;
  /** False once the lock is another worker's, or gone. */
  held(): Promise<boolean>;
}

const current = new AsyncLocalStorage<JobHold>();

/** Runs `work` (and everything it awaits) on behalf of `hold`'s job. */
export const workingFor = <T>(hold: JobHold, work: () => T): T => current.run(hold, work);

/** The hold of the job this code runs for; undefined outside a queue job. */
export const currentHold = (): JobHold | undefined => current.getStore();
