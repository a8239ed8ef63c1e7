import { z } from "zod";
import { expected, looseText, recordId, requiredText, withNormalizedId } from "./common.ts";
import { Language } from "./language.ts";

/** Create knowledge base request (spec 4.7). Languages: the assistant codes (docs/spec-gaps.md). */
export const KnowledgeBaseCreate = z
  .strictObject({
    title: requiredText(),
    language: Language,
    data: z
      .array(z.strictObject({ question: requiredText(), answer: requiredText() }), {
        error: expected("an array of {question, answer} objects"),
      })
      .min(1, "must hold at least one question/answer pair"),
  })
  .meta({ id: "KnowledgeBaseCreate", description: "Knowledge base (spec 2.9) as sent." });

export type KnowledgeBaseCreate = z.input<typeof KnowledgeBaseCreate>;

export const KnowledgeBase = z
  .looseObject({
    ...recordId,
    title: looseText(),
    language: looseText(),
    data: z.array(z.looseObject({ question: looseText(), answer: looseText() })).nullish(),
  })
  .transform(withNormalizedId)
  .meta({ id: "KnowledgeBase", description: "Knowledge base record (spec 2.9)." });

export type KnowledgeBase = z.output<typeof KnowledgeBase>;
