import { VcwError } from "./vcw-error.ts";

export interface FieldIssue {
  /** Dotted path of the bad field, e.g. `actions[0].startTime`; empty for the whole body. */
  path: string;
  message: string;
}

/** The request was rejected before anything was sent: it breaks the spec's rules. */
export class RequestValidationError extends VcwError {
  override name = "RequestValidationError";
  readonly operation: string;
  readonly issues: FieldIssue[];

  constructor(operation: string, issues: FieldIssue[]) {
    super(`Invalid request for ${operation}: ${formatIssues(issues)}`);
    this.operation = operation;
    this.issues = issues;
  }
}

export function formatIssues(issues: FieldIssue[]): string {
  return issues.map((i) => (i.path ? `${i.path} ${i.message}` : i.message)).join("; ");
}
