import type { Client } from "../../api/client.ts";
import type { LiveRecord } from "./plan.ts";

/** Assistants and knowledge bases as the service lists them now (it has no dialer list). */
export async function readLive(client: Client): Promise<Record<"assistant" | "knowledgeBase", LiveRecord[]>> {
  const [assistants, knowledgeBases] = await Promise.all([
    client.assistants.list(),
    client.knowledgeBases.list(),
  ]);
  const withId = <T extends { id?: string | undefined }>(r: T): r is T & { id: string } => Boolean(r.id);
  return {
    assistant: assistants.filter(withId).map((a) => ({ id: a.id, name: a.name, fields: a })),
    knowledgeBase: knowledgeBases.filter(withId).map((k) => ({ id: k.id, name: k.title, fields: k })),
  };
}
