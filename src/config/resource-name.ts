import { z } from "zod";

/** A resource's name in resources/ (its own file: the resource kinds and the job both use it). */
export const resourceName = z
  .string({ error: "is required: a short name of lower-case letters, digits and dashes" })
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "must be lower-case letters, digits and dashes, such as support-bot");
