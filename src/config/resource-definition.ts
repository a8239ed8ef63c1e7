import { z } from "zod";
import { AssistantCreate, DialerCreate, KnowledgeBaseCreate } from "../api/schemas/index.ts";
import { DialerPool } from "./dialer-pool-definition.ts";
import { resourceName } from "./resource-name.ts";

/** The records `resources/*.yaml` may declare on the service (docs/operations.md, "Resources as code"). */
export const RESOURCE_KINDS = ["knowledgeBase", "dialer", "assistant"] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** A secret named by the environment variable that holds it; its value is never in a file. */
export const EnvRef = z
  .strictObject({
    env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name such as MAIN_LINE_TOKEN"),
  })
  .meta({ description: "A secret: the name of the environment variable that holds it." });
export type EnvRef = z.output<typeof EnvRef>;

const secret = () =>
  z
    .strictObject(EnvRef.shape, { error: "must be { env: VARIABLE }: a secret is never written in a file" })
    .optional();

/** Another resource of the files, by its name. */
export const ResourceRef = z.strictObject({ resource: resourceName });

const { name: _assistantName, knowledge_base_Id: _kb, ...assistantFields } = AssistantCreate.shape;
const { name: _dialerName, auth_token: _t, sip_trunk_password: _p, ...dialerFields } = DialerCreate.shape;
const { title: _title, data: _data, ...knowledgeFields } = KnowledgeBaseCreate.shape;

/** The assistant's record name is `NAME@HASH`: set by vcw, so it is not part of the spec. */
export const AssistantSpec = z.strictObject({
  ...assistantFields,
  knowledge_base_Id: z
    .union([ResourceRef, z.string().min(1)], {
      error: "must be { resource: NAME } of a knowledge base in the files, or a knowledge base id",
    })
    .optional(),
});

export const DialerSpec = z.strictObject({
  ...dialerFields,
  auth_token: secret(),
  sip_trunk_password: secret(),
});

const QuestionAnswer = z.strictObject({ question: z.string(), answer: z.string() });

export const KnowledgeBaseSpec = z.strictObject({
  ...knowledgeFields,
  data: z.union(
    [
      z.array(QuestionAnswer),
      z.strictObject({
        csv: z
          .string()
          .min(1)
          .meta({ description: "A CSV file beside this one, with question and answer columns." }),
      }),
    ],
    { error: "must be a list of { question, answer } or { csv: FILE } (a CSV beside this file)" },
  ),
});

const doc = <K extends ResourceKind | "dialerPool", S extends z.ZodType>(kind: K, spec: S) =>
  z.strictObject({ kind: z.literal(kind), name: resourceName, spec });

/**
 * One YAML document of a resource file. A `dialerPool` (decision 0066) has nothing on the service:
 * jobs name it (`campaign.dialers: { resource }`) and read it from these files.
 */
export const ResourceDocument = z
  .discriminatedUnion(
    "kind",
    [
      doc("assistant", AssistantSpec),
      doc("knowledgeBase", KnowledgeBaseSpec),
      doc("dialer", DialerSpec),
      doc("dialerPool", DialerPool),
    ],
    { error: `must be one of ${[...RESOURCE_KINDS, "dialerPool"].join(", ")}` },
  )
  .meta({ id: "ResourceDocument", title: "vcw resource (assistant, knowledge base, dialer or dialer pool)" });

export type ResourceDocument = z.output<typeof ResourceDocument>;

/** The secret fields of a dialer spec. */
export const SECRET_FIELDS = ["auth_token", "sip_trunk_password"] as const;

/** The JSON Schema published as resources/schema.json, so editors autocomplete resource files. */
export function resourceJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ResourceDocument, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}
