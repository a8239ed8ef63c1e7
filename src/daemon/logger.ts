import pino, { type Logger } from "pino";
import pretty from "pino-pretty";
import { LOG_REDACT_PATHS, REDACTED } from "../api/secrets.ts";

export interface LoggerOptions {
  level?: string;
  /** Human-readable lines; default when stderr is a terminal. */
  pretty?: boolean;
}

/** Logs go to stderr (stdout is for results), JSON unless on a terminal, secrets redacted. */
export function createLogger(o: LoggerOptions = {}): Logger {
  const options = {
    level: o.level ?? process.env.LOG_LEVEL ?? "info",
    redact: { paths: LOG_REDACT_PATHS, censor: REDACTED },
  };
  const human = o.pretty ?? process.stderr.isTTY === true;
  if (human) return pino(options, pretty({ destination: 2, sync: true, ignore: "pid,hostname" }));
  return pino(options, pino.destination({ dest: 2, sync: false }));
}
