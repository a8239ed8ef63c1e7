import { underCallingRules } from "../../config/calling-rules-switch.ts";
import type { JobDefinition } from "../../config/job-definition.ts";
import { assistantsOf } from "../../config/variant-definition.ts";
import type { AssistantCatalog, AssistantLookup } from "./assistant-catalog.ts";
import { DISCLOSURE_RULE, disclosurePhrase } from "./disclosure.ts";

/** What `vcw jobs check` says of one job's disclosure: a warning, or that it could not look. */
export interface DisclosureFinding {
  file: string;
  job: string;
  kind: "missing" | "unchecked";
  message: string;
}

/**
 * Checks that each job's assistant says the call is automated or AI in its first words
 * (`start_speech`), with the job's `calling.disclosure.phrases`. The assistant is looked up in the
 * catalog (resources/ or the service, each read once); what can't be read is said, not guessed.
 */
export async function checkDisclosures(
  jobs: readonly { file: string; job: JobDefinition }[],
  read: AssistantCatalog,
): Promise<DisclosureFinding[]> {
  const findings: DisclosureFinding[] = [];
  for (const { file, job } of jobs) {
    for (const { ref, field } of job.campaign ? assistantsOf(job.campaign) : []) {
      const finding = disclosureFinding(await read(ref), job, field);
      if (finding) findings.push({ file, job: job.name, ...finding });
    }
  }
  return findings;
}

/** What one assistant's first words lack, if anything. */
function disclosureFinding(
  lookup: AssistantLookup,
  job: JobDefinition,
  field: string,
): Pick<DisclosureFinding, "kind" | "message"> | undefined {
  // An assistant the service does not have is a problem of its own (service-refs.ts), not a note here.
  if ("missing" in lookup) return undefined;
  if ("unchecked" in lookup)
    return { kind: "unchecked", message: `disclosure not checked: ${lookup.unchecked}` };
  const found = lookup.found;
  const phrases = underCallingRules(job) ? job.calling.disclosure.phrases : undefined;
  if (disclosurePhrase(found.speech, phrases)) return undefined;
  return {
    kind: "missing",
    message: `${field}: ${found.of} does not say the call is automated or AI in its start_speech ("${found.speech}"; none of: ${(phrases ?? ["the default phrases"]).join(", ")}). ${DISCLOSURE_RULE}`,
  };
}
