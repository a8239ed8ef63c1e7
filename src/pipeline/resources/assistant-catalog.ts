import type { Client } from "../../api/client.ts";
import type { LoadedResources } from "../../config/load-resources.ts";
import type { AssistantRef } from "../../config/variant-definition.ts";

export interface CatalogSources {
  /** The resources/ folder, read (an assistant named `{ resource }` is read there); none: not looked at. */
  resources?: () => Promise<LoadedResources>;
  /** The service's client, or why there is none (offline: assistants by id or name can't be read). */
  client: Client | string;
}

/**
 * What a job's assistant reference finds: the assistant (its first words, and what it is called in
 * a message); the service's answer that it has none (`missing`, with the names it has); or why no
 * one could look (offline, a resource not in resources/, the service not answering).
 */
export type AssistantLookup =
  | { found: { speech: string; of: string } }
  | { missing: string }
  | { unchecked: string };

/** Looks up what a job's assistant reference finds. */
export type AssistantCatalog = (ref: AssistantRef) => Promise<AssistantLookup>;

/** The names listed in a message: enough to spot a typo, never a page of them. */
const SHOWN = 5;

/**
 * The assistants jobs name, each source read at most once (resources/, the service's
 * assistants.list): what `vcw jobs check` and `vcw preview` check a job's assistants against.
 */
export function assistantCatalog(sources: CatalogSources): AssistantCatalog {
  let resources: Promise<LoadedResources> | undefined;
  let listed:
    | Promise<{ id?: string | undefined; name?: string | undefined; start_speech?: unknown }[]>
    | undefined;
  return async (ref) => {
    if ("resource" in ref) {
      if (!sources.resources) return { unchecked: "resources/ is not read here" };
      resources ??= sources.resources();
      const entry = (await resources).resources.find(
        (r) => r.kind === "assistant" && r.name === ref.resource,
      );
      if (!entry) return { unchecked: `no assistant resource "${ref.resource}" in resources/` };
      return {
        found: { speech: String(entry.spec.start_speech ?? ""), of: `assistant resource "${ref.resource}"` },
      };
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
    const of = "id" in ref ? `assistant ${ref.id}` : `assistant "${ref.name}"`;
    const matches = all.filter((a) => ("id" in ref ? a.id === ref.id : a.name === ref.name));
    if (matches.length > 1)
      return {
        missing: `the service has ${matches.length} assistants named "${"name" in ref ? ref.name : ""}": name it by id`,
      };
    const match = matches[0];
    if (!match) {
      const names = [...new Set(all.map((a) => a.name).filter(Boolean))];
      const has =
        names.length === 0
          ? "it has none"
          : `it has ${names
              .slice(0, SHOWN)
              .map((n) => `"${n}"`)
              .join(", ")}${names.length > SHOWN ? ` and ${names.length - SHOWN} more` : ""}`;
      return { missing: `the service has no ${of} (${has})` };
    }
    return { found: { speech: String(match.start_speech ?? ""), of } };
  };
}
