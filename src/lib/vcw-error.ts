/** Base of every error this library throws. */
export class VcwError extends Error {
  override name = "VcwError";
}
