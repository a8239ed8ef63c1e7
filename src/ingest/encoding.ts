import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import iconv from "iconv-lite";
import { IngestFileError } from "./ingest-file-error.ts";

export type Encoding = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";

export interface DetectedEncoding {
  encoding: Encoding;
  bom: boolean;
}

/** iconv-lite names; it strips a BOM while decoding. */
export const ICONV_NAME: Record<Encoding, string> = {
  "utf-8": "utf8",
  "utf-16le": "utf16le",
  "utf-16be": "utf16be",
  // Node's own windows-1252 decoder is wrong on current Node 20/22; iconv-lite's is right.
  "windows-1252": "win1252",
};

/** The BOM at the start of `head`, if any. Pure. */
export function encodingFromBom(head: Uint8Array): DetectedEncoding | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: "utf-8", bom: true };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: "utf-16le", bom: true };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: "utf-16be", bom: true };
  return undefined;
}

/** True when every other byte of a sample is NUL: UTF-16 text without its BOM. Pure. */
export function looksLikeUtf16(sample: Uint8Array): boolean {
  if (sample.length < 8) return false;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < sample.length; i++) if (sample[i] === 0) i % 2 === 0 ? even++ : odd++;
  const half = sample.length / 2;
  return even > half * 0.7 || odd > half * 0.7;
}

/**
 * The encoding of a file: by its BOM, else UTF-8 when the whole file is strict UTF-8, else
 * Windows-1252 (which also reads Latin-1). Reads the file once, in chunks. Rejects binary files.
 */
export async function detectEncoding(path: string): Promise<DetectedEncoding> {
  const handle = await open(path, "r");
  const head = new Uint8Array(4096);
  const { bytesRead } = await handle.read(head, 0, head.length, 0).finally(() => handle.close());
  const byBom = encodingFromBom(head);
  if (byBom) return byBom;
  if (looksLikeUtf16(head.subarray(0, bytesRead))) {
    throw new IngestFileError(
      "utf16_without_bom",
      path,
      "the file looks like UTF-16 without a byte order mark; save it as UTF-8",
    );
  }
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let utf8 = true;
  let offset = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    const nul = chunk.indexOf(0);
    if (nul >= 0) {
      throw new IngestFileError(
        "binary",
        path,
        `the file is binary, not text (a NUL byte at offset ${offset + nul})`,
      );
    }
    if (utf8) {
      try {
        decoder.decode(chunk, { stream: true });
      } catch {
        utf8 = false;
      }
    }
    offset += chunk.length;
  }
  if (utf8) {
    try {
      decoder.decode();
    } catch {
      utf8 = false;
    }
  }
  return { encoding: utf8 ? "utf-8" : "windows-1252", bom: false };
}

/** A stream that decodes the file's bytes to text. */
export const decoderStream = (encoding: Encoding) => iconv.decodeStream(ICONV_NAME[encoding]);

/** Decodes the start of a file for sniffing; a character cut at the end does not matter. */
export const decodeSample = (bytes: Buffer, encoding: Encoding) => iconv.decode(bytes, ICONV_NAME[encoding]);
