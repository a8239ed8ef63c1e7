import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import iconv from "iconv-lite";

/** A fresh temporary folder. */
export const tempDir = (prefix = "vcw-") => mkdtempSync(join(tmpdir(), prefix));

/** Writes `text` (or bytes) to a new file and returns its path. */
export function writeFixture(
  dir: string,
  name: string,
  content: string | Buffer,
  encoding: "utf8" | "utf8bom" | "utf16le" | "utf16be" | "win1252" = "utf8",
): string {
  const path = join(dir, name);
  let bytes: Buffer;
  if (Buffer.isBuffer(content)) bytes = content;
  else if (encoding === "utf8") bytes = Buffer.from(content, "utf8");
  else if (encoding === "utf8bom")
    bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(content, "utf8")]);
  else if (encoding === "utf16le")
    bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(content, "utf16le")]);
  else if (encoding === "utf16be")
    bytes = Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(content, "utf16be")]);
  else bytes = iconv.encode(content, "win1252");
  writeFileSync(path, bytes);
  return path;
}
