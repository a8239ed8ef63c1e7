import type { Client } from "../../api/client.ts";
import { underCallingRules } from "../../config/calling-rules-switch.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import type { LoadedResources } from "../../config/load-resources.ts";
import { assistantsOf } from "../../config/variant-definition.ts";
import { DISCLOSURE_RULE, disclosurePhrase } from "./disclosure.ts";

/** What `vcw jobs check` says of one job's disclosure: a warning, or that it could not look. */
export interface DisclosureFinding {
  file: string;
  job: string;
  kind: "missing" | "unchecked";
  message: string;
}

export interface DisclosureSources {
  /** The resources/ folder, read (an assistant named `{ resource }` is read there). */
  resources: () => Promise<LoadedResources>;
  /** The service's client, or why there is none (offline: assistants by id or name can't be read). */
  client: Client | string;
}

type Speech = { speech: string; of: string } | { unchecked: string };

/**
 * Checks that each job's assistant says the call is automated or AI in its first words
 * (`start_speech`), with the job's `calling.disclosure.phrases`. The assistant is read from
 * resources/ or from the service (assistants.list, once); what can't be read is said, not guessed.
 */
export async function checkDisclosures(
  jobs: readonly { file: string; job: JobDefinition }[],
  sources: DisclosureSources,
): Promise<DisclosureFinding[]> {
  const findings: DisclosureFinding[] = [];
  const read = speechReader(sources);
  for (const { file, job } of jobs) {
    for (const { variant, ref } of job.campaign ? assistantsOf(job.campaign) : []) {
      const field = variant ? `campaign.variants ${variant}` : "campaign.assistant";
      const finding = disclosureFinding(await read(ref), job, field);
      if (finding) findings.push({ file, job: job.name, ...finding });
    }
  }
  return findings;
}

/** What one assistant's first words lack, if anything. */
function disclosureFinding(
  found: Speech,
  job: JobDefinition,
  field: string,
): Pick<DisclosureFinding, "kind" | "message"> | undefined {
  if ("unchecked" in found)
    return { kind: "unchecked", message: `disclosure not checked: ${found.unchecked}` };
  const phrases = underCallingRules(job) ? job.calling.disclosure.phrases : undefined;
  if (disclosurePhrase(found.speech, phrases)) return undefined;
  return {
    kind: "missing",
    message: `${field}: ${found.of} does not say the call is automated or AI in its start_speech ("${found.speech}"; none of: ${(phrases ?? ["the default phrases"]).join(", ")}). ${DISCLOSURE_RULE}`,
  };
}

/** Reads assistants' start_speech, each source at most once. */
function speechReader(sources: DisclosureSources) {
  let resources: Promise<LoadedResources> | undefined;
  let listed:
    | Promise<{ id?: string | undefined; name?: string | undefined; start_speech?: unknown }[]>
    | undefined;
  return async (ref: NonNullable<JobDefinition["campaign"]>["assistant"]): Promise<Speech> => {
    if ("resource" in ref) {
      resources ??= sources.resources();
      const entry = (await resources).resources.find(
        (r) => r.kind === "assistant" && r.name === ref.resource,
      );
      if (!entry) return { unchecked: `no assistant resource "${ref.resource}" in resources/` };
      return { speech: String(entry.spec.start_speech ?? ""), of: `assistant resource "${ref.resource}"` };
    }
    const client = sources.client;
    if (typeof client === "string") return { unchecked: `the assistant is on the service, and ${client}` };
    listed ??= client.assistants.list();
    let all: Awaited<typeof listed>;
    try {
      all = await listed;
    } catch (error) {
      return { unchecked: `the service's assistants could not be read (${(error as Error).message})` };
    }
    const match = all.find((a) => ("id" in ref ? a.id === ref.id : a.name === ref.name));
    const of = "id" in ref ? `assistant ${ref.id}` : `assistant "${ref.name}"`;
    if (!match) return { unchecked: `the service has no ${of}` };
    return { speech: String(match.start_speech ?? ""), of };
  };
}
