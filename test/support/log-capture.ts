import { Writable } from "node:stream";
import { pino } from "pino";
import { LOG_REDACT_PATHS } from "../../src/api/index.ts";

/** A debug-level pino logger whose output the test can read. */
export function captureLogs() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = pino({ level: "debug", redact: { paths: LOG_REDACT_PATHS, censor: "[redacted]" } }, stream);
  return { logger, text: () => lines.join("") };
}
