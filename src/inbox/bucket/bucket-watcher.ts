import type { Logger } from "pino";
import { candidacy } from "../drop-folder.ts";
import type { Arrival } from "../inbox-store.ts";
import type { InboxWatcher } from "../watcher.ts";
import type { ObjectInfo } from "./bucket-client.ts";

export interface BucketWatchOptions {
  /** The objects directly in the inbox prefix, every page (bucket-client.ts's `list`). */
  list: () => AsyncIterable<ObjectInfo>;
  arrivalOf: (o: ObjectInfo) => Arrival;
  /** Listed this often. */
  scanMs: number;
  /** An object counts as whole once listed unchanged (size and ETag) this long, on two listings at least. */
  stableMs: number;
  logger?: Logger | undefined;
}

/**
 * Lists a bucket inbox every `scanMs` and reports each object once whole: listed with the same
 * size and ETag on a later listing at least `stableMs` after it was first seen (an upload in
 * parts, a gateway that rewrites a file, show another). Hidden and temporary names (`.part`) are
 * never reported; another kind of file is reported once, to be told of. An object still there
 * after its report settled is reported again (its admission failed, or another worker holds it).
 */
export function watchBucket(
  onArrival: (a: Arrival) => Promise<unknown>,
  o: BucketWatchOptions,
): InboxWatcher {
  const seen = new Map<string, { tag: string; since: number }>();
  const inFlight = new Set<string>();
  const told = new Set<string>();
  let lastError = "";
  let closed = false;

  const scan = async () => {
    const now = Date.now();
    const listed = new Set<string>();
    try {
      for await (const object of o.list()) {
        const a = o.arrivalOf(object);
        const kind = candidacy(a.name);
        if (kind === "skip") continue;
        const id = `${object.key}\n${object.etag}\n${object.bytes}`;
        listed.add(object.key);
        const before = seen.get(object.key);
        if (before?.tag !== id) {
          seen.set(object.key, { tag: id, since: now });
          continue;
        }
        if (now - before.since < o.stableMs || inFlight.has(id)) continue;
        if (kind === "foreign") {
          if (told.has(id)) continue;
          told.add(id);
        }
        inFlight.add(id);
        void onArrival(a).finally(() => inFlight.delete(id));
      }
      lastError = "";
    } catch (error) {
      const said = String(error instanceof Error ? error.message : error);
      // Said once until it changes: a bucket away for an hour is one line, not one a scan.
      if (said !== lastError) o.logger?.error({ err: said }, "could not list the bucket inbox");
      lastError = said;
      return;
    }
    for (const key of seen.keys()) if (!listed.has(key)) seen.delete(key);
    for (const id of told) if (!listed.has(id.slice(0, id.indexOf("\n")))) told.delete(id);
  };

  let timer: NodeJS.Timeout | undefined;
  let current = scan();
  const loop = () => {
    if (closed) return;
    timer = setTimeout(() => {
      current = scan().then(loop);
    }, o.scanMs);
  };
  const ready = current.then(loop);
  return {
    ready,
    async close() {
      closed = true;
      clearTimeout(timer);
      await current;
    },
  };
}
