import { z } from "zod";

/**
 * Words that identify a call as automated or AI when its assistant says one of them first
 * (`start_speech`): whole words, any case. English; a job in another language names its own.
 */
export const DEFAULT_DISCLOSURE_PHRASES = [
  "automated",
  "artificial",
  "artificial intelligence",
  "AI",
  "A.I.",
  "virtual assistant",
  "digital assistant",
  "robot",
  "bot",
  "computer-generated",
  "not a person",
  "not a human",
  "not a real person",
] as const;

/** A job's `calling.disclosure`: what `vcw jobs check` looks for in its assistant's first words. */
export const DisclosureDefinition = z
  .strictObject({
    phrases: z
      .array(z.string().trim().min(1, "must not be empty"))
      .min(1, "must name at least one phrase")
      .default([...DEFAULT_DISCLOSURE_PHRASES])
      .meta({
        description:
          "Phrases (whole words, any case) of which the assistant's start_speech must contain one: it says the call is automated or AI. Default: English ones (automated, artificial, AI, virtual assistant, bot...).",
      }),
  })
  .meta({
    description:
      "vcw jobs check warns when the job's assistant does not say, in its start_speech, that the call is automated or AI (FCC 24-17; docs/compliance.md, Disclosure).",
  });
export type DisclosureDefinition = z.infer<typeof DisclosureDefinition>;
