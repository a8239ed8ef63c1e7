/**
 * One measured pass over a file, in its own process so that its peak RSS is its own:
 * `validate FILE` (ours: read, check, dedupe, write the error report) or `parse FILE` (papaparse
 * alone, same decoding and streaming). Prints one JSON line.
 */
import { createReadStream } from "node:fs";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import Papa from "papaparse";
import { decoderStream, validateFile } from "../src/ingest/index.ts";

const [mode, file] = process.argv.slice(2);
const started = performance.now();
let rows = 0;
if (mode === "validate") {
  const summary = await validateFile(file!, { defaultCountry: "US" }, { errorsPath: `${file}.errors.csv` });
  rows = summary.total;
} else {
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, {
    delimiter: ",",
    newline: "\r\n",
    header: false,
    dynamicTyping: false,
  });
  await pipeline(
    createReadStream(file!, { highWaterMark: 64 * 1024 }),
    decoderStream("utf-8"),
    parser,
    new Writable({
      objectMode: true,
      write(_row, _enc, done) {
        rows++;
        done();
      },
    }),
  );
  rows -= 1; // the header
}
const ms = performance.now() - started;
console.log(JSON.stringify({ rows, ms, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
