import { basename, extname } from "node:path";

/**
 * Text made safe as one path segment, whole: no control or reserved characters (a separator
 * becomes `_`), no bidirectional controls (a right-to-left override makes `evil\u202Evsc.csv` read
 * as another name), no leading dots. Nothing is cut: the caller bounds the length.
 */
export function cleanFileName(text: string): string {
  return (
    text
      .normalize("NFC")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
      .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, "_")
      .replace(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "")
      .replace(/^[.\s]+/, "")
      .trim()
  );
}

/**
 * A file name from the folder, made safe to use as one path segment of ours: its directories
 * dropped, then `cleanFileName`, at most 100 characters.
 */
export function safeFileName(name: string): string {
  const cleaned = cleanFileName(basename(name.replaceAll("\\", "/")));
  if (!cleaned) return "file";
  if (cleaned.length <= 100) return cleaned;
  const ext = extname(cleaned).slice(0, 10);
  return cleaned.slice(0, 100 - ext.length) + ext;
}
