import { APIError, type APIErrorDetails } from "./api-error.ts";
import { type FieldIssue, formatIssues } from "./request-validation-error.ts";

/** The service answered with success but with a body this client cannot read. */
export class UnexpectedResponseError extends APIError {
  override name = "UnexpectedResponseError";
  readonly issues: FieldIssue[];

  constructor(details: APIErrorDetails, issues: FieldIssue[]) {
    super(details, `unexpected response: ${formatIssues(issues)}`);
    this.issues = issues;
  }
}
