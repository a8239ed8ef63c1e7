import { type Document, isMap, type LineCounter } from "yaml";
import type { z } from "zod";
import { plural } from "../lib/plural.ts";

/** What is wrong in a job, sinks or resource file, and where: file, dotted path, line. */
export interface JobProblem {
  file: string;
  /** Dotted path in the document, e.g. `segment.name`; empty for the whole file. */
  path: string;
  line?: number | undefined;
  message: string;
}

/** What a job file still loads with, and why: an old spelling, or the service's field in a job. */
export interface JobWarning extends JobProblem {
  kind: "old_spelling" | "service_setting";
}

/**
 * A document's value, or the problem that stops reading it: yaml refuses aliases that expand past
 * its limit (a billion laughs) by throwing, with no word of where.
 */
export function documentValue(
  doc: Document.Parsed,
  file: string,
  lines: LineCounter,
): { value: unknown } | { problem: JobProblem } {
  try {
    return { value: doc.toJS() };
  } catch (error) {
    const line = doc.range ? lines.linePos(doc.range[0]).line : undefined;
    return {
      problem: { file, path: "", line, message: `${(error as Error).message}: the file is not read` },
    };
  }
}

/** Each zod issue of a YAML document as a problem with its path and line (its parent's, if absent). */
export function zodProblems(
  file: string,
  doc: Document,
  lines: LineCounter,
  issues: readonly z.core.$ZodIssue[],
): JobProblem[] {
  return issues.map((issue) => {
    const node = doc.getIn(issue.path as (string | number)[], true) as
      | { range?: [number, number] }
      | undefined;
    const parent =
      issue.path.length > 0 ? doc.getIn(issue.path.slice(0, -1) as (string | number)[], true) : doc.contents;
    const range = node?.range ?? (isMap(parent) ? parent.range : undefined);
    return {
      file,
      path: issue.path.join("."),
      line: range ? lines.linePos(range[0]).line : undefined,
      message:
        issue.code === "unrecognized_keys"
          ? `unknown ${plural("field", issue.keys.length)} ${issue.keys.join(", ")}`
          : issue.message,
    };
  });
}

/** A problem as a person reads it: `file:line: path: message`. */
export const formatProblem = (p: JobProblem) =>
  `${p.file}${p.line ? `:${p.line}` : ""}: ${p.path ? `${p.path}: ` : ""}${p.message}`;
