import { z } from "zod";
import { expected, looseText, recordId, requiredText, withNormalizedId } from "./common.ts";

/** Create or update segment request (spec 4.3). */
export const SegmentWrite = z
  .strictObject({
    name: requiredText(),
    description: z.string({ error: expected("a string") }).optional(),
  })
  .meta({ id: "SegmentWrite", description: "Segment fields (spec 2.4)." });

export type SegmentWrite = z.input<typeof SegmentWrite>;

/** A segment as returned: the spec shows no id (docs/spec-gaps.md). */
export const Segment = z
  .looseObject({ ...recordId, name: looseText(), description: looseText() })
  .transform(withNormalizedId)
  .meta({ id: "Segment", description: "Segment record (spec 2.4)." });

export type Segment = z.output<typeof Segment>;
