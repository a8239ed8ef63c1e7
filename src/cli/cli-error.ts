/** A usage problem of the command line: printed as is, exit status 2. */
export class CliError extends Error {
  override name = "CliError";
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}
