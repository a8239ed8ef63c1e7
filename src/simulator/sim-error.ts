/** A failure the simulator answers with: HTTP status and the Error object's message. */
export class SimError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
