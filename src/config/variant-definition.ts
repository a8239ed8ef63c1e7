import { z } from "zod";

/** The ways a job names an assistant: by id, by name (assistants.list), or a resource of resources/. */
export type AssistantRef = { id: string } | { name: string } | { resource: string };

/**
 * One arm of an experiment (`campaign.variants`): its name, its assistant and its share (a weight:
 * 1 and 1 split evenly, 3 and 1 give the first three quarters of the contacts).
 */
export const variantDefinition = <A extends z.ZodType<AssistantRef>>(assistant: A) =>
  z.strictObject({
    name: z
      .string({ error: "is required: a short name such as a or warm-intro" })
      .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, "must be lower-case letters, digits and dashes (at most 32)"),
    assistant,
    share: z
      .number({ error: "is required: a positive weight such as 1" })
      .positive("must be a positive weight")
      .meta({ description: "The variant's weight: its share is this over the sum of all." }),
  });

/** The variants list: two or more, names unique. */
export const variantsDefinition = <A extends z.ZodType<AssistantRef>>(assistant: A) =>
  z
    .array(variantDefinition(assistant))
    .min(2, "must name at least two variants (one assistant needs campaign.assistant)")
    .max(16, "must name at most 16 variants")
    .superRefine((variants, ctx) => {
      const seen = new Set<string>();
      variants.forEach((v, i) => {
        if (seen.has(v.name))
          ctx.addIssue({ code: "custom", message: `repeats the name "${v.name}"`, path: [i, "name"] });
        seen.add(v.name);
      });
    })
    .meta({
      description:
        "An experiment: two or more assistants, each contact given one for good by a hash of the experiment's name (or the job's) and its number (docs/decisions/0060-experiments-a-statistician-signs.md).",
    });

export interface VariantSpec {
  name: string;
  assistant: AssistantRef;
  share: number;
}

/**
 * Every assistant a job's campaigns use, with the variant that uses it (none without variants) and
 * the field of the job that names it, `campaign.assistant` or `campaign.variants[1].assistant`: what
 * a message about it points to.
 */
export function assistantsOf(campaign: {
  assistant: AssistantRef;
  variants?: readonly VariantSpec[] | undefined;
}): { variant?: string; ref: AssistantRef; field: string }[] {
  if (!campaign.variants) return [{ ref: campaign.assistant, field: "campaign.assistant" }];
  return campaign.variants.map((v, i) => ({
    variant: v.name,
    ref: v.assistant,
    field: `campaign.variants[${i}].assistant`,
  }));
}

/** What an experiment's variants are compared on: contacts reached, with a meeting, transferred. */
export const EXPERIMENT_METRICS = ["reached", "meetings", "transfers"] as const;
export type ExperimentMetric = (typeof EXPERIMENT_METRICS)[number];

/** `campaign.experiment`: the metric the report decides on, and the optional guardrail. */
export const experimentDefinition = z
  .strictObject({
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, "must be lower-case letters, digits and dashes (at most 64)")
      .optional()
      .meta({
        description:
          "The experiment's name, the seed of its assignment: a new name draws everyone afresh; the same name keeps each person's variant when the job is renamed (default: the job's name).",
      }),
    plannedContacts: z.number().int().min(100).default(5000).meta({
      description:
        "Contacts the experiment is planned to have, every variant together: its always-valid intervals are narrowest there (vcw experiment plan tells what it can find).",
    }),
    metric: z
      .enum(EXPERIMENT_METRICS, { error: `must be one of ${EXPERIMENT_METRICS.join(", ")}` })
      .default("reached")
      .meta({ description: "The share of contacts the report compares variants on." }),
    guardrail: z
      .strictObject({
        stopWorse: z.boolean().default(false).meta({
          description:
            "Stop giving new contacts to a variant worse than the best on the metric, the difference's 95% interval clear of zero.",
        }),
        maxOptOutRate: z.number().gt(0).lt(1).optional().meta({
          description:
            "Stop a variant whose opt-out rate's 95% interval lies above this share of its contacts.",
        }),
        minContacts: z.number().int().min(1).default(50).meta({
          description: "Contacts each variant must have called before the guardrail judges it.",
        }),
      })
      .optional()
      .meta({
        description: "Checked after each poll of the job's campaigns; its decisions are logged and kept.",
      }),
  })
  .meta({ description: "How the variants are compared (needs campaign.variants)." });
export type ExperimentSettings = z.output<typeof experimentDefinition>;

/** The seed of a job's assignment: its experiment's name, else the job's (docs/decisions/0060-experiments-a-statistician-signs.md). */
export const experimentSeed = (job: string, experiment: { name?: string | undefined } | undefined) =>
  experiment?.name ?? job;

/**
 * Whose decisions, people and assignments the stores keep (the job's experiment): the job, and its
 * experiment's name when it has one, so a new experiment in a job starts with none.
 */
export const experimentId = (job: string, experiment: { name?: string | undefined } | undefined) =>
  experiment?.name ? `${job}/${experiment.name}` : job;
