import { Transform } from "node:stream";
import { IngestFileError } from "./ingest-file-error.ts";

/** Fails the stream when a physical line grows past `maxChars` (a file that is no CSV, or a broken quote). */
export function lineGuard(file: string, maxChars: number): Transform {
  const tooLong = new RegExp(`[^\\r\\n]{${maxChars + 1}}`);
  let sinceBreak = 0;
  const fail = () =>
    new IngestFileError(
      "line_too_long",
      file,
      `a line is longer than ${maxChars} characters: is this a CSV file?`,
    );
  return new Transform({
    decodeStrings: false,
    transform(chunk: string, _encoding, done) {
      const firstN = chunk.indexOf("\n");
      const firstR = chunk.indexOf("\r");
      const first = firstN < 0 ? firstR : firstR < 0 ? firstN : Math.min(firstN, firstR);
      if (first < 0) {
        sinceBreak += chunk.length;
        if (sinceBreak > maxChars) return done(fail());
        return done(null, chunk);
      }
      const last = Math.max(chunk.lastIndexOf("\n"), chunk.lastIndexOf("\r"));
      if (sinceBreak + first > maxChars || tooLong.test(chunk.slice(first, last))) return done(fail());
      sinceBreak = chunk.length - last - 1;
      if (sinceBreak > maxChars) return done(fail());
      done(null, chunk);
    },
  });
}
