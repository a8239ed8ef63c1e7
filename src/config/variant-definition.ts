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
        "An experiment: two or more assistants, each contact given one for good by a hash of the job and its number (docs/architecture.md, Experiments).",
    });

export interface VariantSpec {
  name: string;
  assistant: AssistantRef;
  share: number;
}

/** Every assistant a job's campaigns use, with the variant that uses it (none without variants). */
export function assistantsOf(campaign: {
  assistant: AssistantRef;
  variants?: readonly VariantSpec[] | undefined;
}): { variant?: string; ref: AssistantRef }[] {
  if (!campaign.variants) return [{ ref: campaign.assistant }];
  return campaign.variants.map((v) => ({ variant: v.name, ref: v.assistant }));
}
