import { z } from "zod";
import { CONTACT_FIELDS } from "../ingest/headers.ts";
import { isCountryCode } from "../ingest/phone.ts";

const MAPPABLE = [...CONTACT_FIELDS, "full_name"] as const;

/**
 * A pipeline, one YAML file in jobs/: a drop folder whose CSV files become contacts of a segment.
 * Later issues add the campaign, polling, report and sink sections.
 */
export const JobDefinition = z
  .strictObject({
    name: z
      .string({ error: "is required: a short name of letters, digits and dashes" })
      .regex(
        /^[a-z0-9][a-z0-9-]{0,62}$/,
        "must be lower-case letters, digits and dashes, such as november-leads",
      ),
    description: z.string().optional(),
    inbox: z
      .string({ error: "is required: the folder to watch for CSV files" })
      .min(1, "must not be empty")
      .meta({ description: "Drop folder, relative to the working directory. Default layout: inbox/<job>." }),
    segment: z
      .union(
        [
          z.strictObject({
            name: z.string().min(1, "must not be empty"),
            description: z.string().optional(),
          }),
          z.strictObject({ id: z.string().min(1, "must not be empty") }),
        ],
        { error: "must be { name: ... } (found or created) or { id: ... }" },
      )
      .meta({ description: "Target segment: by name (created if missing) or by id." }),
    contacts: z
      .strictObject({
        country: z
          .string()
          .refine((c) => isCountryCode(c.toUpperCase()), "must be a two-letter country code such as US or GB")
          .optional()
          .meta({ description: "Country of phone numbers written without +country code." }),
        mapping: z
          .partialRecord(
            z.enum(MAPPABLE, { error: `must be one of ${MAPPABLE.join(", ")}` }),
            z.string().min(1),
          )
          .optional()
          .meta({ description: "field: Column header, wins over the header synonyms." }),
        emailPolicy: z.enum(["reject", "drop"]).default("reject"),
      })
      .default({ emailPolicy: "reject" }),
    limits: z
      .strictObject({
        maxFileBytes: z.number().int().positive().optional(),
        maxRows: z.number().int().positive().optional(),
      })
      .default({}),
    import: z
      .strictObject({
        concurrency: z
          .number()
          .int()
          .min(1)
          .max(64)
          .default(8)
          .meta({ description: "Contact creates in flight per file." }),
      })
      .default({ concurrency: 8 }),
  })
  .meta({ id: "JobDefinition", title: "vcw job definition" });

export type JobDefinition = z.output<typeof JobDefinition>;

/** The JSON Schema published as jobs/schema.json, so editors autocomplete job files. */
export function jobJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(JobDefinition, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}
