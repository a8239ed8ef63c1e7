import type { Logger } from "pino";
import type { JobDefinition } from "../config/job-definition.ts";
import { type AdmitDeps, type AdmitResult, admitFile, recoverFile } from "../inbox/admit-file.ts";
import { isCandidate, isDuplicateName } from "../inbox/drop-folder.ts";
import type { FileRegistry } from "../inbox/file-registry.ts";
import type { InboxStore } from "../inbox/inbox-store.ts";
import type { InboxWatcher } from "../inbox/watcher.ts";
import { enqueueImport } from "../queue/enqueue-import.ts";
import type { Queues } from "../queue/queues.ts";

export interface InboxRoleOptions {
  def: JobDefinition;
  /** The job's inbox: a drop folder or a bucket prefix. */
  inbox: InboxStore;
  registry: FileRegistry;
  queues: Queues;
  logger: Logger;
  stableMs: number;
  /** How often a bucket inbox is listed. */
  scanMs: number;
  /** How often processing/ is looked at again. */
  rescanMs: number;
  /** Records of contents settled longer ago than this are forgotten (checked hourly). */
  retentionMs: number;
  /** Wait this long before taking up what is in processing/ at start (see daemon.ts). */
  firstRescanAfterMs?: number;
}

export interface InboxRole {
  watcher: InboxWatcher;
  /** Looks at processing/ now (also done every `rescanMs`); resolves once it has. */
  rescan(): Promise<void>;
  close(): Promise<void>;
}

/**
 * One job's inbox: files dropped in are admitted and queued; processing/ is looked at again at
 * start and periodically, so a file whose job was lost (a Redis that lost its data) or that could
 * not be settled (a full disk) is taken up again, never left silently.
 */
export async function startInboxRole(o: InboxRoleOptions): Promise<InboxRole> {
  const d: AdmitDeps = {
    job: o.def.name,
    inbox: o.inbox,
    registry: o.registry,
    enqueue: (file, gen) => enqueueImport(o.queues, file, gen),
  };
  const log = o.logger.child({ job: o.def.name });
  // One file at a time per job: admissions of one folder never race each other.
  let chain = Promise.resolve();
  const leftAlone = new Set<string>();
  // What was said of each file in processing/: a rescan finding it queued again says it at debug.
  const said = new Map<string, string>();
  const admit = (what: string, step: () => Promise<AdmitResult>) => {
    const next = chain.then(step).then(
      (result) => {
        if (result.kind !== "ignored") {
          const saying = `${result.kind}:${result.sha256}`;
          const level = said.get(result.file) === saying ? "debug" : "info";
          said.set(result.file, saying);
          return log[level]({ file: what, result }, "file admitted");
        }
        // Said once per file: a foreign file stays in the inbox for good.
        if (result.reason.startsWith("not a contact file") && !leftAlone.has(what)) {
          leftAlone.add(what);
          log.warn({ file: what }, result.reason);
        }
      },
      (error: unknown) => log.error({ file: what, err: String(error) }, "file could not be admitted"),
    );
    chain = next;
    return next;
  };

  const rescan = async () => {
    const names: string[] = [];
    try {
      for await (const f of o.inbox.list("processing"))
        if (isCandidate(f.name) || isDuplicateName(f.name)) names.push(f.name);
    } catch (error) {
      // A bucket out of reach: the next rescan looks again.
      log.error({ err: String(error) }, "could not list processing/ of the inbox");
      return;
    }
    for (const name of said.keys()) if (!names.includes(name)) said.delete(name);
    await Promise.all(names.map((name) => admit(name, () => recoverFile(name, d))));
    await prune().catch((error: unknown) =>
      log.warn({ err: String(error) }, "could not prune the file registry"),
    );
  };

  let prunedAt = 0;
  const prune = async () => {
    if (Date.now() - prunedAt < 3_600_000) return;
    prunedAt = Date.now();
    const removed = await o.registry.prune(o.def.name, Date.now() - o.retentionMs);
    if (removed > 0) log.info({ removed }, "forgot file contents settled before the retention period");
  };
  // Left by a process killed while writing; other processes may share the inbox (inbox-store.ts).
  const removed = await o.inbox.sweep();
  if (removed > 0) log.info({ removed }, "removed temporary files left by a stopped process");
  const first = setTimeout(() => void rescan(), o.firstRescanAfterMs ?? 0);
  const timer = setInterval(() => void rescan(), o.rescanMs);
  timer.unref();
  if (!o.firstRescanAfterMs) await rescan();
  const watcher = await o.inbox.watch(
    (a) =>
      admit(a.where, async () => {
        const result = await o.inbox.claim(a, () => admitFile(a, d));
        return result ?? { kind: "ignored", reason: "being taken by another worker" };
      }),
    { stableMs: o.stableMs, scanMs: o.scanMs, logger: log },
  );
  log.info({ inbox: o.inbox.where, segment: o.def.segment }, "watching");
  return {
    watcher,
    rescan,
    async close() {
      clearTimeout(first);
      clearInterval(timer);
      await watcher.close();
      await chain;
    },
  };
}
