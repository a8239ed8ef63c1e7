import { z } from "zod";

/** The Error object (spec 2.10): carried by every failure response. */
export const ErrorObject = z
  .object({
    error: z.number().int(),
    message: z.string(),
  })
  .meta({ id: "Error", description: "Failure response body (spec 2.10)." });

export type ErrorObject = z.infer<typeof ErrorObject>;

/** `{ message }` returned by the contact create and update operations. */
export const MessageResponse = z
  .looseObject({ message: z.string().optional() })
  .meta({ id: "MessageResponse", description: "Confirmation message." });

export type MessageResponse = z.output<typeof MessageResponse>;
