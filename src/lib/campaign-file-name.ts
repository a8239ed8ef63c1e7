import { maskPhonesIn } from "./mask-phone.ts";
import { safeFileName } from "./safe-file-name.ts";

/**
 * The name a campaign's files share: its name (a safe file name, phones masked, at most 60
 * characters) and its id, `North leads.cmp_123`, so a folder of results reads by name and two
 * campaigns of one name stay apart.
 */
export function campaignFileBase(c: { id: string; name: string }): string {
  const name = safeFileName(maskPhonesIn(c.name))
    .slice(0, 60)
    .replace(/[.\s]+$/, "");
  return safeFileName(name && name !== "file" ? `${name}.${c.id}` : c.id);
}
