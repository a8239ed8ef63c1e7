/** The Error object (spec 2.10) of a failure response, read tolerantly: any body is accepted. */
export function readErrorBody(text: string): { code?: number; message?: string } {
  if (!text.trim()) return {};
  try {
    const body = JSON.parse(text) as unknown;
    if (typeof body !== "object" || body === null) return { message: text.slice(0, 500) };
    const { error, message } = body as { error?: unknown; message?: unknown };
    return {
      code: typeof error === "number" && Number.isInteger(error) ? error : undefined,
      message: typeof message === "string" ? message : typeof error === "string" ? error : undefined,
    };
  } catch {
    return { message: text.slice(0, 500) };
  }
}
