import type { Client } from "../../api/client.ts";
import { AmbiguousWriteError, NotFoundError } from "../../api/errors/index.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import type { ResourceEntry } from "../../config/load-resources.ts";
import { type AppliedResource, type Drift, type Step, stateField } from "../model/resources.ts";
import type { CampaignStore } from "../stores/campaign-store.ts";
import type { CreateMemo } from "../stores/create-memo.ts";
import type { ResourceState } from "../stores/resource-state.ts";
import { findDrift } from "./drift.ts";
import { DialerOutcomeUnknownError, VersionNotCreatedError } from "./errors.ts";
import { readLive } from "./live-records.ts";
import { planResources } from "./plan.ts";
import { assistantBody, dialerBody, knowledgeBaseBody } from "./request-bodies.ts";
import { campaignUses, jobUses } from "./uses.ts";

export interface ApplyDeps {
  client: Client;
  /** What was applied, the versions campaigns use, and the apply's lock. */
  resources: ResourceState;
  /** Each campaign's create: a use whose campaign was made names it. */
  memo: Pick<CreateMemo, "campaign">;
  store: CampaignStore;
  now?: () => number;
}

export interface ApplyOptions {
  dryRun: boolean;
  prune: boolean;
  /** The loaded jobs: the versions they name are never deleted. */
  jobs: readonly JobDefinition[];
  /** Where secrets (`{ env }`) are read. */
  env: NodeJS.ProcessEnv;
  /** Dialer name -> its id on the service (null: create it again), after a create whose answer was lost. */
  adopt?: ReadonlyMap<string, string | null>;
  /** Update every dialer, to send secrets that changed in the environment only. */
  resendSecrets?: boolean;
  /** How long the apply lock holds after its holder died. */
  lockTtlMs?: number;
}

export interface ApplyReport {
  steps: Step[];
  drift: Drift[];
  applied: boolean;
}

/** Attempts at creating one version; each after the first only once its name is not found. */
const CREATE_ATTEMPTS = 3;

/**
 * Plans and (unless dry-run) carries out the resource files: under one lock, so two applies never
 * make two versions; the plan is made again inside it from what is there now, so a second apply
 * changes nothing and an interrupted one picks up where it stopped.
 */
export async function applyResources(
  deps: ApplyDeps,
  declared: readonly ResourceEntry[],
  o: ApplyOptions,
): Promise<ApplyReport> {
  const state = deps.resources;
  if (o.dryRun) return { ...(await planNow(deps, state, declared, o)), applied: false };
  const locked = await state.exclusive(o.lockTtlMs ?? 60_000, async () => {
    const plan = await planNow(deps, state, declared, o);
    await execute(deps, state, declared, plan.steps, o);
    return { ...plan, applied: true };
  });
  if (!locked.acquired) throw new Error("the apply lock was not acquired"); // it waits, so never
  return locked.value;
}

async function planNow(
  deps: ApplyDeps,
  state: ResourceState,
  declared: readonly ResourceEntry[],
  o: ApplyOptions,
) {
  const applied = await state.all();
  const live = await readLive(deps.client);
  const now = deps.now?.() ?? Date.now();
  const inUse = new Map([...jobUses(o.jobs, applied), ...(await campaignUses(deps, now, !o.dryRun))]);
  const steps = planResources({
    declared,
    state: applied,
    live,
    inUse,
    prune: o.prune,
    resendSecrets: o.resendSecrets === true,
  });
  const adopted = new Set(steps.flatMap((s) => (s.adopt ? [s.adopt] : [])));
  return { steps, drift: findDrift([...applied.values()], declared, live, adopted) };
}

async function execute(
  deps: ApplyDeps,
  state: ResourceState,
  declared: readonly ResourceEntry[],
  steps: readonly Step[],
  o: ApplyOptions,
): Promise<void> {
  const applied = await state.all();
  const entries = new Map(declared.map((r) => [stateField(r.kind, r.name), r]));
  const save = async (s: AppliedResource) => {
    applied.set(stateField(s.kind, s.name), s);
    await state.put(s);
  };
  for (const step of steps) {
    const r = entries.get(stateField(step.kind, step.name));
    const prev = applied.get(stateField(step.kind, step.name));
    if (!r || step.action === "unchanged" || step.action === "delete") continue;
    if (r.kind === "dialer") await save(await applyDialer(deps.client, r, step, prev, o, save));
    else await save(await applyVersion(deps.client, r, step, prev, applied, deps.now?.() ?? Date.now()));
  }
  // Removals last, assistants before the knowledge bases they name.
  for (const step of [...steps].reverse()) await removeVersions(deps.client, state, step, applied, o.prune);
}

async function applyDialer(
  client: Client,
  r: ResourceEntry,
  step: Step,
  prev: AppliedResource | undefined,
  o: ApplyOptions,
  save: (s: AppliedResource) => Promise<void>,
): Promise<AppliedResource> {
  const body = dialerBody(r, o.env);
  const adopted = o.adopt?.get(r.name);
  let id = prev?.id ?? adopted ?? undefined;
  if (!id && prev?.pending && adopted === undefined) throw new DialerOutcomeUnknownError(r.name);
  const next: AppliedResource = {
    kind: "dialer",
    name: r.name,
    hash: step.hash!,
    id,
    spec: r.spec,
    appliedAt: new Date().toISOString(),
    versions: [],
  };
  if (id) {
    await client.dialers.update(id, body);
    return next;
  }
  // Marked before sending: a lost answer is never followed by a second create on a guess.
  await save({ ...next, pending: { hash: step.hash!, at: next.appliedAt } });
  try {
    id = (await client.dialers.create(body)).id;
  } catch (error) {
    if (error instanceof AmbiguousWriteError) throw new DialerOutcomeUnknownError(r.name);
    await save({ ...next, id: undefined }); // refused: not made, nothing pending
    throw error;
  }
  if (!id) throw new DialerOutcomeUnknownError(r.name);
  return { ...next, id };
}

async function applyVersion(
  client: Client,
  r: ResourceEntry,
  step: Step,
  prev: AppliedResource | undefined,
  applied: ReadonlyMap<string, AppliedResource>,
  now: number,
): Promise<AppliedResource> {
  const recordName = step.recordName!;
  const body =
    r.kind === "assistant" ? assistantBody(r, recordName, applied) : knowledgeBaseBody(r, recordName);
  const id =
    step.adopt ?? (await createVersion(client, r.kind as "assistant" | "knowledgeBase", body, recordName));
  const versions = (prev?.versions ?? []).filter((v) => v.id !== id);
  return {
    kind: r.kind,
    name: r.name,
    hash: step.hash!,
    id,
    spec: r.spec,
    appliedAt: new Date(now).toISOString(),
    versions: [
      ...versions,
      { id, hash: step.hash!, recordName, body, createdAt: new Date(now).toISOString() },
    ],
  };
}

/** Creates one version; a create whose answer was lost is looked up by its name before trying again. */
async function createVersion(
  client: Client,
  kind: "assistant" | "knowledgeBase",
  body: Record<string, unknown>,
  recordName: string,
): Promise<string> {
  for (let attempt = 1; attempt <= CREATE_ATTEMPTS; attempt++) {
    try {
      const made =
        kind === "assistant"
          ? await client.assistants.create(body as Parameters<Client["assistants"]["create"]>[0])
          : await client.knowledgeBases.create(body as Parameters<Client["knowledgeBases"]["create"]>[0]);
      if (made.id) return made.id;
    } catch (error) {
      if (!(error instanceof AmbiguousWriteError)) throw error;
    }
    const found = (await readLive(client))[kind].find((l) => l.name === recordName);
    if (found) return found.id;
  }
  throw new VersionNotCreatedError(
    `${kind} ${recordName}: not created after ${CREATE_ATTEMPTS} attempts, and not listed by its name`,
  );
}

async function removeVersions(
  client: Client,
  state: ResourceState,
  step: Step,
  applied: Map<string, AppliedResource>,
  prune: boolean,
): Promise<void> {
  const field = stateField(step.kind, step.name);
  let s = applied.get(field);
  if (!s) return;
  for (const d of step.deletions.filter((x) => !x.keptBecause && step.kind !== "dialer")) {
    try {
      if (step.kind === "assistant") await client.assistants.delete(d.id);
      else await client.knowledgeBases.delete(d.id);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
    s = { ...s, versions: s.versions.filter((v) => v.id !== d.id) };
    applied.set(field, s);
    await state.put(s);
  }
  const gone =
    step.kind === "dialer" ? prune && !step.deletions.some((d) => d.keptBecause) : s.versions.length === 0;
  if (step.action === "delete" && gone) {
    applied.delete(field);
    await state.remove(step.kind, step.name);
  }
}
