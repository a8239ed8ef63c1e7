import type { Client } from "../../api/client.ts";
import type { ResourceEntry } from "../../config/load-resources.ts";
import { type EnvRef, SECRET_FIELDS } from "../../config/resource-definition.ts";
import { type AppliedResource, stateField } from "../model/resources.ts";

/** An assistant version as sent: its record name, and the knowledge base it names by its current id. */
export function assistantBody(
  r: ResourceEntry,
  recordName: string,
  applied: ReadonlyMap<string, AppliedResource>,
): Record<string, unknown> {
  const ref = r.spec.knowledge_base_Id;
  if (!ref || typeof ref !== "object") return { ...r.spec, name: recordName };
  const kb = (ref as { resource: string }).resource;
  const id = applied.get(stateField("knowledgeBase", kb))?.id;
  if (!id) throw new Error(`knowledge base ${kb} was not applied before assistant ${r.name}`);
  return { ...r.spec, name: recordName, knowledge_base_Id: id };
}

export const knowledgeBaseBody = (r: ResourceEntry, recordName: string): Record<string, unknown> => ({
  ...r.spec,
  title: recordName,
});

/** A dialer as sent: its secrets read from the environment here, at the last moment, and kept nowhere. */
export function dialerBody(r: ResourceEntry, env: NodeJS.ProcessEnv) {
  const body: Record<string, unknown> = { ...r.spec, name: r.name };
  for (const f of SECRET_FIELDS) {
    const ref = r.spec[f] as EnvRef | undefined;
    if (!ref) continue;
    const value = env[ref.env];
    if (!value) throw new Error(`dialer ${r.name}: spec.${f}: environment variable ${ref.env} is not set`);
    body[f] = value;
  }
  return body as Parameters<Client["dialers"]["create"]>[0];
}
