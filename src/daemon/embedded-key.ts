import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { createOwnFile, ensurePrivateFolder, readOwnFile, UntrustedFileError } from "../lib/own-file.ts";

/** Where a home keeps the key of its embedded simulator when VCS_API_KEY is not set. */
export const embeddedKeyFileOf = (home: string) => join(home, "simulator.key");

/**
 * The key of the home's embedded simulator: VCS_API_KEY when set, else the home's own, made once
 * (mode 0600) and read back with the checks of every record vcw joins. Never taken from a record:
 * whoever could write one would choose the key (decision 0056).
 */
export async function embeddedKey(home: string, given: string | undefined): Promise<string> {
  if (given) return given;
  await ensurePrivateFolder(home);
  const file = embeddedKeyFileOf(home);
  await createOwnFile(file, `sim-${randomBytes(24).toString("hex")}\n`);
  const key = (await readOwnFile(file))?.trim();
  if (!key) throw new UntrustedFileError(file, "it holds no key (remove it: vcw makes a new one)");
  return key;
}

/**
 * The key to join a running embedded simulator with, making nothing: VCS_API_KEY, else the home's
 * (read with the same checks). Undefined when the home has none: its simulator, if any, runs with
 * a VCS_API_KEY this process lacks.
 */
export async function existingEmbeddedKey(
  home: string,
  given: string | undefined,
): Promise<string | undefined> {
  if (given) return given;
  return (await readOwnFile(embeddedKeyFileOf(home)))?.trim() || undefined;
}
