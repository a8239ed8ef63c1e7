import type { JobDefinition } from "../../config/job-definition.ts";
import { storedCampaignOf } from "../stores/campaign-registry.ts";
import type { CampaignStore } from "../stores/campaign-store.ts";
import { CallEnds } from "./call-ends.ts";
import type { ExperimentCampaign } from "./experiment-figures.ts";
import { callFacts } from "./read-calls.ts";

/** One campaign as last read: the meta it was read at, and whether every transition was before `upTo`. */
interface CampaignRead {
  mark: string;
  upTo: number;
  whole: boolean;
  createdAt: number;
  /** Undefined for a campaign without a variant. */
  campaign: ExperimentCampaign | undefined;
}

/** The meta fields the figures read, and its write count: together, the mark of a change. */
const MARK = ["writes", "version", "lastChangeAt", "createdAt", "info", "stop", "startCheck"] as const;

type Store = Pick<CampaignStore, "keptMetasOf" | "transitionsBetween" | "records">;

/**
 * A job's experiment campaigns, in id order, up to `upTo`. With `keep`, what was read is kept
 * between looks: each look reads the meta fields the figures need of every campaign (a chunk at a
 * time, one round trip each), and parses and reads the calls of only those whose meta changed
 * since; every write of a poll bumps its meta's `writes` in the same MULTI, so an unchanged meta
 * means unchanged calls. Without `keep` nothing is held (a report of any size).
 */
export class ExperimentCampaigns {
  private readonly read = new Map<string, CampaignRead>();
  private classes = "";

  constructor(private readonly keep: boolean) {}

  async *upTo(store: Store, def: JobDefinition, upTo: number): AsyncGenerator<ExperimentCampaign> {
    const classes = JSON.stringify(def.polling.statuses);
    // The calls read depend on the status lists: a changed job reads everything again.
    if (classes !== this.classes) this.read.clear();
    this.classes = classes;
    const seen = new Set<string>();
    for await (const [id, fields] of store.keptMetasOf(def.name, MARK)) {
      const mark = MARK.map((f) => fields[f]).join("\u0000");
      let r = this.read.get(id);
      // Unchanged: nothing parsed or read again.
      if (!r || r.mark !== mark || (!r.whole && r.upTo !== upTo)) {
        const stored = storedCampaignOf(fields);
        r = {
          mark,
          upTo,
          whole: true,
          createdAt: stored?.createdAt ?? 0,
          campaign: stored?.info.variant
            ? {
                info: stored.info,
                stopReasons: stored.stop?.reasons,
                withdrawnAtStart: stored.startCheck?.withdrawn,
                calls: [],
              }
            : undefined,
        };
        if (r.campaign && r.createdAt < upTo) {
          const calls = await endedCalls(store, def, id, upTo, this.keep);
          [r.campaign.calls, r.whole] = [calls.facts, calls.whole];
        } else r.whole = !r.campaign; // one not yet created by `upTo` is looked at again
        if (this.keep) this.read.set(id, r);
      }
      seen.add(id);
      if (!r.campaign || r.createdAt >= upTo) continue;
      yield r.campaign;
    }
    for (const id of this.read.keys()) if (!seen.has(id)) this.read.delete(id);
  }
}

/** A campaign's calls that ended before `upTo`, and whether no transition was left out. */
async function endedCalls(store: Store, def: JobDefinition, id: string, upTo: number, all: boolean) {
  const ends = new CallEnds(def.polling.statuses);
  let whole = true;
  // Kept: all of them, so a later look with a later `upTo` may reuse them (transitions are the server's time).
  for await (const t of store.transitionsBetween(id, 0, all ? Number.MAX_SAFE_INTEGER : upTo))
    if (t.at < upTo) ends.add(t);
    else whole = false;
  const facts = await callFacts(store, id, ends.ends, async () => {});
  return { facts, whole };
}
