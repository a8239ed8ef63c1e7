import pino, { type Logger } from "pino";
import pretty from "pino-pretty";
import { LOG_REDACT_PATHS, REDACTED } from "../api/secrets.ts";
import { logLevelOf } from "../config/log-level.ts";
import { maskPhonesDeep, maskPhonesIn } from "../lib/mask-phone.ts";

export interface LoggerOptions {
  /** Unset: LOG_LEVEL, else info (config/log-level.ts). */
  level?: string;
  /** Human-readable lines; default when stderr is a terminal. */
  pretty?: boolean;
  /** Where JSON lines go instead of stderr (tests read them). */
  destination?: pino.DestinationStream;
}

/** A line's fields with phone-like runs masked (an error as pino would serialize it, masked). */
const maskedFields = (fields: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [
      k,
      maskPhonesDeep(v instanceof Error ? { ...pino.stdSerializers.err(v) } : v),
    ]),
  );

/** Logs go to stderr (stdout is for results), JSON unless on a terminal, secrets redacted, phones masked. */
export function createLogger(o: LoggerOptions = {}): Logger {
  const options: pino.LoggerOptions = {
    level: o.level ?? logLevelOf(process.env, "info"),
    redact: { paths: LOG_REDACT_PATHS, censor: REDACTED },
    formatters: { log: maskedFields, bindings: maskedFields },
    // pino skips the bindings formatter for children: their bindings, already JSON, are masked here.
    onChild(child) {
      const bound = child as unknown as Record<symbol, string>;
      bound[pino.symbols.chindingsSym] = maskPhonesIn(bound[pino.symbols.chindingsSym] ?? "");
    },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((a) => maskPhonesDeep(a)) as Parameters<typeof method>);
      },
    },
  };
  const human = o.pretty ?? process.stderr.isTTY === true;
  if (human) return pino(options, pretty({ destination: 2, sync: true, ignore: "pid,hostname" }));
  return pino(options, o.destination ?? pino.destination({ dest: 2, sync: false }));
}
