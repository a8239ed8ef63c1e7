import type { z } from "zod";
import { UnexpectedResponseError } from "./errors/index.ts";
import { NOT_PLAIN, plainReaderOf } from "./plain-reader.ts";
import { scrubSecrets } from "./secrets.ts";
import { toFieldIssues } from "./zod-issues.ts";

const REQUEST_ID_HEADERS = ["x-request-id", "request-id"];

export function requestIdOf(response: Response): string | undefined {
  for (const header of REQUEST_ID_HEADERS) {
    const value = response.headers.get(header);
    if (value) return value;
  }
  return undefined;
}

/**
 * A success body (its text, read whole by the attempt) read with the operation's response schema
 * (a plain one by the reader derived from it, plain-reader.ts).
 * Whatever goes wrong (not JSON, not the schema, a reader that throws) is an UnexpectedResponseError,
 * which the transport turns into an AmbiguousWriteError for a create.
 */
export function readResponse(
  operation: string,
  response: Response,
  text: string,
  schema: z.ZodType | undefined,
  secrets: string[],
): unknown {
  const details = { operation, status: response.status, requestId: requestIdOf(response) };
  const unexpected = (message: string) =>
    new UnexpectedResponseError(details, [{ path: "", message: scrubSecrets(message, secrets) }]);
  if (!schema) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw unexpected(text.trim() ? "is not JSON" : "is empty, a JSON body was expected");
  }
  const plain = plainReaderOf(schema)?.(json) ?? NOT_PLAIN;
  if (plain !== NOT_PLAIN) return plain;
  let parsed: z.ZodSafeParseResult<unknown>;
  try {
    parsed = schema.safeParse(json);
  } catch (error) {
    throw unexpected(`could not be read (${(error as Error).message})`);
  }
  if (!parsed.success) {
    const issues = toFieldIssues(parsed.error).map((i) => ({
      ...i,
      message: scrubSecrets(i.message, secrets),
    }));
    throw new UnexpectedResponseError(details, issues);
  }
  return parsed.data;
}
