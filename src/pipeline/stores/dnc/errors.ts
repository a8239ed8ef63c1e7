import { VcwError } from "../../../lib/vcw-error.ts";

/** A do-not-call import that was refused: nothing of it is in force, the list before it still is. */
export class DoNotCallImportError extends VcwError {
  override name = "DoNotCallImportError";
}

/** The lists changed under a lookup again and again (imports back to back): try it again later. */
export class DoNotCallLookupError extends VcwError {
  override name = "DoNotCallLookupError";
}
