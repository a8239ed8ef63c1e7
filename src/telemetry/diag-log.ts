import type { DiagLogger } from "@opentelemetry/api";
import { scrubSecrets } from "../api/secrets.ts";
import { maskPhonesIn } from "../lib/mask-phone.ts";

/** Where OpenTelemetry's own messages go: vcw's log (pino's shape), never raw on stderr. */
export interface TraceLog {
  error(o: object, msg: string): void;
  warn(o: object, msg: string): void;
  info(o: object, msg: string): void;
  debug(o: object, msg: string): void;
}

/** The same message is logged once, then at most once a minute with how many were left out. */
const REPEAT_MS = 60_000;

/**
 * OpenTelemetry's diagnostics as vcw log lines. Its error handler hands over an exception as a
 * JSON string (message, code, stack): that becomes one line with the message and code, no stack
 * (a collector down is a fact to read, not a crash), masked like a span (phones, secret values).
 * An export that fails every few seconds while the collector is down is said once a minute.
 */
export function diagLog(log: TraceLog, secrets: readonly string[], now = Date.now): DiagLogger {
  const text = (s: string) => scrubSecrets(maskPhonesIn(s), secrets);
  const seen = new Map<string, { at: number; left: number }>();
  const say =
    (level: keyof TraceLog) =>
    (message: string, ...args: unknown[]) => {
      const { msg, detail } = readMessage(message, args);
      const key = `${level} ${msg}`;
      const last = seen.get(key);
      if (last && now() - last.at < REPEAT_MS) {
        last.left++;
        return;
      }
      seen.set(key, { at: now(), left: 0 });
      const repeated = last?.left ? { repeated: last.left } : {};
      log[level]({ component: "traces", ...detail, ...repeated }, `traces: ${text(msg)}`);
    };
  return {
    error: say("warn"),
    warn: say("warn"),
    info: say("debug"),
    debug: say("debug"),
    verbose: say("debug"),
  };
}

/** A diag message and its arguments as one line: a JSON-encoded error read, the rest joined. */
function readMessage(message: string, args: unknown[]): { msg: string; detail: { code?: string } } {
  const parts = [message, ...args].map((part) => errorOf(part) ?? { msg: stringOf(part) });
  const code = parts.find((p) => p.code)?.code;
  return {
    msg: parts
      .map((p) => p.msg)
      .filter(Boolean)
      .join(" "),
    detail: code ? { code } : {},
  };
}

function errorOf(part: unknown): { msg: string; code?: string } | undefined {
  let value = part;
  if (typeof part === "string" && part.startsWith("{")) {
    try {
      value = JSON.parse(part);
    } catch {
      return undefined;
    }
  }
  if (!value || typeof value !== "object" || !("message" in value)) return undefined;
  const { message, code } = value as { message?: unknown; code?: unknown };
  return { msg: String(message), ...(code !== undefined ? { code: String(code) } : {}) };
}

const stringOf = (part: unknown) =>
  typeof part === "string" ? part : (JSON.stringify(part) ?? String(part));
