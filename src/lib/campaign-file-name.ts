import { maskPhonesIn } from "./mask-phone.ts";
import { cleanFileName } from "./safe-file-name.ts";

/**
 * The most bytes of a campaign's name in its files' names: with its id, `.results.csv` and the
 * longest name made beside it (a sorted run's temporary file, about 45 bytes), a name stays well
 * under the 255 bytes a file name may have.
 */
export const NAME_BYTES = 150;

/** The name's tail vcw adds to the job's pattern: ` #<hash>`, then its zone, variant and follow-up. */
const TAIL = / #[0-9a-f]{8}(?: .*)?$/;

/**
 * The name a campaign's files share (the file sink's and the dashboard's download): its name as a
 * file name and its id, `leads 2026-11-24 monday.csv #1a2b3c4d [America-Los_Angeles].cmp_123`.
 * Phones are masked; a zone's `/` (any separator) becomes `-`, never a folder that cuts the job,
 * date and file off; a long name loses the middle of its pattern's part (`…`), never vcw's tail
 * (the hash, the zone, the variant, the follow-up). The id keeps two campaigns of one name apart.
 */
export function campaignFileBase(c: { id: string; name: string }): string {
  const text = cleanFileName(maskPhonesIn(c.name).replace(/[/\\]+/g, "-"));
  const name = shortened(text, NAME_BYTES).replace(/[.\s]+$/, "");
  const id = cutEnd(cleanFileName(c.id.replace(/[/\\]+/g, "-")), 60) || "campaign";
  return name ? `${name}.${id}` : id;
}

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

/** `text` in at most `max` bytes: the middle of its head (before vcw's tail) replaced by `…`. */
function shortened(text: string, max: number): string {
  if (bytes(text) <= max) return text;
  const at = text.search(TAIL);
  const tail = at >= 0 ? text.slice(at) : "";
  const head = Array.from(at >= 0 ? text.slice(0, at) : text);
  const room = max - bytes(tail) - bytes("…");
  if (room < 8) return cutEnd(text, max);
  const middleCut = (keep: number) =>
    `${head.slice(0, Math.ceil(keep / 2)).join("")}…${head.slice(head.length - Math.floor(keep / 2)).join("")}`;
  let keep = head.length - 1;
  while (keep > 0 && bytes(middleCut(keep)) > room + bytes("…")) keep -= 1;
  return `${middleCut(keep)}${tail}`;
}

/** The first characters of `text` in at most `max` bytes (never half a character). */
function cutEnd(text: string, max: number): string {
  let out = "";
  for (const ch of text) {
    if (bytes(out + ch) > max) break;
    out += ch;
  }
  return out;
}
