import type { JobDefinition } from "../../config/job-definition.ts";
import { isCandidate } from "../../inbox/drop-folder.ts";
import type { Area, InboxStore, InboxStores } from "../../inbox/inbox-store.ts";
import type { CampaignRegistry, PollLag } from "../../pipeline/stores/campaign-registry.ts";
import type { ExperimentDecision } from "../../pipeline/stores/experiment-store.ts";

/** A job's inbox (a drop folder or a bucket prefix): files waiting in it and in processing/. */
export interface FolderView {
  job: string;
  inbox: string;
  waiting: number;
  processing: number;
  /** Why the files could not be counted (a bucket out of reach); the counts are 0 then. */
  problem?: string;
}

export interface JobView {
  name: string;
  description?: string | undefined;
  inbox: string;
  /** This process watches the inbox (`vcw start`). */
  watched: boolean;
  /** Paused jobs take no new file; set by the pause command once there is one. */
  paused: boolean;
  waiting: number;
  processing: number;
  /** Why the inbox's files could not be counted (a bucket out of reach). */
  problem?: string;
  /** The job's last poll tick as the scheduler recorded it: behind when polls wait or campaigns are overdue. */
  polls?: { at: string; due: number; lagSeconds: number; behind: boolean } | undefined;
  /** A job with `campaign.variants`: each variant and whether it gets new contacts (the decisions). */
  experiment?: {
    variants: { name: string; share: number; state: "open" | "stopped" | "promoted"; reason?: string }[];
  };
}

async function countFiles(inbox: InboxStore, area: Area): Promise<number> {
  let n = 0;
  for await (const f of inbox.list(area)) if (isCandidate(f.name)) n += 1;
  return n;
}

/** The files waiting in a job's inbox and in its processing/ folder (or prefix). */
export async function folderOf(def: JobDefinition, inboxes: InboxStores): Promise<FolderView> {
  const inbox = inboxes(def.inbox);
  try {
    const [waiting, processing] = await Promise.all([
      countFiles(inbox, "inbox"),
      countFiles(inbox, "processing"),
    ]);
    return { job: def.name, inbox: inbox.where, waiting, processing };
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    return { job: def.name, inbox: inbox.where, waiting: 0, processing: 0, problem };
  }
}

/** One job as the dashboard shows it: its folder, whether it is paused or watched, its polls. */
export async function jobView(
  def: JobDefinition,
  o: {
    inboxes: InboxStores;
    watched: ReadonlySet<string>;
    paused: boolean;
    store: Pick<CampaignRegistry, "pollLag">;
    decisions?: readonly ExperimentDecision[];
  },
): Promise<JobView> {
  const folder = await folderOf(def, o.inboxes);
  return {
    name: def.name,
    description: def.description,
    inbox: folder.inbox,
    watched: o.watched.has(def.name),
    paused: o.paused,
    waiting: folder.waiting,
    processing: folder.processing,
    ...(folder.problem ? { problem: folder.problem } : {}),
    polls: pollsOf(await o.store.pollLag(def.name)),
    ...experimentOf(def, o.decisions ?? []),
  };
}

/** The job's variants as the dashboard shows them: open, stopped or promoted, and why. */
function experimentOf(
  def: JobDefinition,
  decisions: readonly ExperimentDecision[],
): Pick<JobView, "experiment"> {
  const variants = def.campaign?.variants;
  if (!variants) return {};
  const byVariant = new Map(decisions.map((d) => [d.variant, d]));
  return {
    experiment: {
      variants: variants.map((v) => {
        const d = byVariant.get(v.name);
        const state = !d ? "open" : d.action === "promote" ? "promoted" : "stopped";
        return { name: v.name, share: v.share, state, ...(d ? { reason: d.reason } : {}) };
      }),
    },
  };
}

/** The scheduler's record of a job's last poll tick, if recent. */
function pollsOf(lag: PollLag | undefined): JobView["polls"] {
  if (!lag) return undefined;
  return {
    at: new Date(lag.at).toISOString(),
    due: lag.due,
    lagSeconds: lag.lagMs / 1000,
    behind: lag.behind,
  };
}
