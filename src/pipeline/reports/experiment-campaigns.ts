import type { JobDefinition } from "../../config/job-definition.ts";
import { storedCampaignOf } from "../results/campaign-registry.ts";
import type { CampaignStore } from "../results/campaign-store.ts";
import { CallEnds } from "./call-ends.ts";
import type { ExperimentCampaign } from "./experiment-figures.ts";
import { callFacts } from "./read-calls.ts";

/** One campaign as last read: the meta it was read at, and whether every transition was before `upTo`. */
interface CampaignRead {
  mark: string;
  upTo: number;
  whole: boolean;
  campaign: ExperimentCampaign;
}

type Store = Pick<CampaignStore, "keptMetasOf" | "transitionsBetween" | "records">;

/**
 * A job's experiment campaigns, in id order, up to `upTo`. With `keep`, what was read is kept
 * between looks: each look reads every campaign's meta hash (a chunk at a time, one round trip
 * each) and the transitions and records of only those whose meta changed since; every write of a
 * poll bumps its meta's `writes` in the same MULTI, so an unchanged meta means unchanged calls.
 * Without `keep` nothing is held (a report of any size).
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
    for await (const [id, hash] of store.keptMetasOf(def.name)) {
      const stored = storedCampaignOf(hash);
      if (!stored?.info.variant || stored.createdAt >= upTo) continue;
      seen.add(id);
      const mark = markOf(hash);
      let r = this.read.get(id);
      if (!r || r.mark !== mark || (!r.whole && r.upTo !== upTo)) {
        const calls = await endedCalls(store, def, id, upTo, this.keep);
        r = {
          mark,
          upTo,
          whole: calls.whole,
          campaign: {
            info: stored.info,
            stopReasons: stored.stop?.reasons,
            withdrawnAtStart: stored.startCheck?.withdrawn,
            calls: calls.facts,
          },
        };
        if (this.keep) this.read.set(id, r);
      }
      yield r.campaign;
    }
    for (const id of this.read.keys()) if (!seen.has(id)) this.read.delete(id);
  }
}

/** What of a meta hash the figures read, and its write count. */
function markOf(h: Record<string, string>): string {
  return [h.writes, h.version, h.lastChangeAt, h.createdAt, h.info, h.stop, h.startCheck].join("\u0000");
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
