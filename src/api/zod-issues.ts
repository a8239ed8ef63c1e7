import type { z } from "zod";
import { plural } from "../lib/plural.ts";
import type { FieldIssue } from "./errors/index.ts";

/** zod issues as `{ path, message }` with paths written like `actions[0].startTime`. */
export function toFieldIssues(error: z.ZodError, prefix = ""): FieldIssue[] {
  return error.issues.map((issue) => {
    let path = prefix;
    for (const key of issue.path) {
      path += typeof key === "number" ? `[${key}]` : path ? `.${String(key)}` : String(key);
    }
    if (issue.code === "unrecognized_keys") {
      return { path, message: `has unknown ${plural("field", issue.keys.length)} ${issue.keys.join(", ")}` };
    }
    return { path, message: issue.message };
  });
}
