/**
 * One measured pass over a file, in its own process so that its peak RSS is its own:
 * `validate FILE` (ours: read, check, dedupe, write the error report), `parse FILE` (papaparse
 * alone, same decoding and streaming) or `parse-xlsx FILE` (exceljs's streaming reader alone, as its
 * documentation sets it up). Prints one JSON line; a file `validate` refuses gives its error code.
 */
import { createReadStream } from "node:fs";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import Papa from "papaparse";
import { decoderStream, validateFile } from "../src/ingest/index.ts";

const [mode, file] = process.argv.slice(2);
const started = performance.now();
let rows = 0;
let error: string | undefined;
if (mode === "validate") {
  try {
    const summary = await validateFile(file!, { defaultCountry: "US" }, { errorsPath: `${file}.errors.csv` });
    rows = summary.total;
  } catch (e) {
    // A refused file (bench workbooks): its code, or the message of anything else.
    error = (e as { code?: string }).code ?? (e as Error).message;
  }
} else if (mode === "parse-xlsx") {
  const { default: ExcelJS } = await import("exceljs");
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file!, { sharedStrings: "cache", styles: "cache" });
  for await (const sheet of reader) {
    for await (const _row of sheet) rows++;
    break;
  }
  rows -= 1; // the header
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
console.log(JSON.stringify({ rows, ms, maxRssMb: process.resourceUsage().maxRSS / 1024, error }));
