import { TelemetryConfigError } from "./errors.ts";

export type TraceExporterName = "console" | "otlp";
export type OtlpProtocol = "http/protobuf" | "http/json";

/** What the standard variables ask of traces; the SDK and the exporters read the rest themselves. */
export interface TraceSettings {
  exporters: TraceExporterName[];
  protocol: OtlpProtocol;
}

const EXPORTERS: readonly string[] = ["console", "otlp"];
const PROTOCOLS: readonly string[] = ["http/protobuf", "http/json"];

const list = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

/**
 * Traces are off unless `OTEL_TRACES_EXPORTER` names an exporter (the SDK's own default, `otlp`
 * when unset, would send spans nobody asked for), or when `OTEL_SDK_DISABLED=true`. Pure: the
 * answer decides whether the SDK is loaded at all.
 */
export function traceSettings(env: NodeJS.ProcessEnv): TraceSettings | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  const names = [...new Set(list(env.OTEL_TRACES_EXPORTER))];
  if (names.length === 0 || names.includes("none")) return undefined;
  // The SDK would build everything from the file, without vcw's masking of phones and secrets.
  if (env.OTEL_CONFIG_FILE?.trim())
    throw new TelemetryConfigError(
      "OTEL_CONFIG_FILE is not supported by vcw: configure traces with the OTEL_* variables",
    );
  const unknown = names.filter((n) => !EXPORTERS.includes(n));
  if (unknown.length > 0)
    throw new TelemetryConfigError(
      `OTEL_TRACES_EXPORTER: "${unknown.join(",")}" is not an exporter vcw has (console, otlp or none)`,
    );
  const variable = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim()
    ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
    : "OTEL_EXPORTER_OTLP_PROTOCOL";
  const protocol = env[variable]?.trim().toLowerCase() || "http/protobuf";
  if (names.includes("otlp") && !PROTOCOLS.includes(protocol))
    throw new TelemetryConfigError(
      `${variable}: "${protocol}" is not supported by vcw: use http/protobuf (the default) or http/json`,
    );
  return { exporters: names as TraceExporterName[], protocol: protocol as OtlpProtocol };
}
