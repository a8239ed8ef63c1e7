import { Transform } from "node:stream";
import { IngestFileError } from "./ingest-file-error.ts";

/**
 * Fails the stream when a physical line grows past `maxChars` (a file that is no CSV, or a broken
 * quote). Lines end at `breakChar`, the last character of the file's line end (papaparse splits on
 * that line end alone); found with indexOf, which is native and fast.
 */
export function lineGuard(file: string, maxChars: number, breakChar: "\n" | "\r"): Transform {
  let sinceBreak = 0;
  return new Transform({
    decodeStrings: false,
    transform(chunk: string, _encoding, done) {
      let lineStart = -sinceBreak;
      for (let at = chunk.indexOf(breakChar); at >= 0; at = chunk.indexOf(breakChar, at + 1)) {
        if (at - lineStart > maxChars) break;
        lineStart = at + 1;
      }
      sinceBreak = chunk.length - lineStart;
      if (sinceBreak > maxChars) {
        done(
          new IngestFileError(
            "line_too_long",
            file,
            `a line is longer than ${maxChars} characters: is this a CSV file?`,
          ),
        );
        return;
      }
      done(null, chunk);
    },
  });
}
