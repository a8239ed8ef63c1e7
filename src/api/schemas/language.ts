import { z } from "zod";
import { expected } from "./common.ts";

export const LANGUAGES = [
  "en",
  "de",
  "hi",
  "es",
  "fr",
  "it",
  "ar-kw",
  "gu",
  "bn",
  "te",
  "kn",
  "ta",
  "mr",
] as const;

export const Language = z.enum(LANGUAGES, { error: expected(`one of ${LANGUAGES.join(", ")}`) });
export type Language = z.infer<typeof Language>;
