import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { pipeline } from "node:stream";
import Papa from "papaparse";
import { recordGuard } from "./csv-records.ts";
import { decoderStream, decodeSample, detectEncoding, type Encoding } from "./encoding.ts";
import type { RowSource } from "./row-source.ts";
import { linesSpanned } from "./text.ts";

export const DELIMITERS = [",", ";", "\t", "|"] as const;
const SNIFF_BYTES = 64 * 1024;

export interface Dialect {
  encoding: Encoding;
  bom: boolean;
  delimiter: string;
  linebreak: string;
}

/** Delimiter and line end of a text sample, as papaparse guesses them. Pure. */
export function sniffDialect(sample: string): { delimiter: string; linebreak: string } {
  const { meta } = Papa.parse(sample, {
    preview: 50,
    skipEmptyLines: true,
    delimitersToGuess: [...DELIMITERS],
  });
  return { delimiter: meta.delimiter, linebreak: meta.linebreak };
}

/** A CSV file as a stream of records: decoded, cut into whole records of bounded length, parsed by papaparse. */
export async function openCsv(
  file: string,
  maxLineChars: number,
): Promise<{ source: RowSource; dialect: Dialect }> {
  const { encoding, bom } = await detectEncoding(file);
  const { delimiter, linebreak } = sniffDialect(decodeSample(await readHead(file, SNIFF_BYTES), encoding));
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, {
    delimiter,
    newline: linebreak as "\n",
    quoteChar: '"',
    escapeChar: '"',
    header: false,
    dynamicTyping: false,
    skipEmptyLines: false,
  });
  // papaparse pauses its parser whenever this buffer is full and rebuilds it on resume: give it room.
  (parser as unknown as { _readableState: { highWaterMark: number } })._readableState.highWaterMark = 1024;
  const input = createReadStream(file, { highWaterMark: 64 * 1024 });
  const stream = pipeline(
    input,
    decoderStream(encoding),
    recordGuard(file, { delimiter, linebreak, maxChars: maxLineChars }),
    parser,
    () => undefined,
  );
  let nextLine = 1;
  const source: RowSource = {
    rows: (stream as AsyncIterable<string[]>)[Symbol.asyncIterator](),
    lineOf(cells) {
      const line = nextLine;
      nextLine += linesSpanned(cells);
      return line;
    },
    close: () => input.destroy(),
  };
  return { source, dialect: { encoding, bom, delimiter, linebreak } };
}

async function readHead(file: string, bytes: number): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
