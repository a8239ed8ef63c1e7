import { TelemetryConfigError } from "./errors.ts";

/**
 * What traces load, and only when they are on: optional peer dependencies of vcw, so a consumer's
 * install carries no OpenTelemetry SDK for a feature that is off by default (package.json's
 * `peerDependencies` hold the same list: a test compares them). The checkout and the image have them.
 */
export const TRACE_PACKAGES: Readonly<Record<string, string>> = {
  "@opentelemetry/api": "^1.10.0",
  "@opentelemetry/core": "^3.1.0",
  "@opentelemetry/exporter-trace-otlp-http": "^0.301.0",
  "@opentelemetry/exporter-trace-otlp-proto": "^0.301.0",
  "@opentelemetry/resources": "^3.1.0",
  "@opentelemetry/sdk-node": "^0.301.0",
  "@opentelemetry/sdk-trace": "^3.1.0",
  "bullmq-otel": "^2.0.1",
};

/** The command that installs them, as a person types it. */
export const installTracePackages = () =>
  `npm install ${Object.entries(TRACE_PACKAGES)
    .map(([name, range]) => `${name}@${range}`)
    .join(" ")}`;

/** A failed import of one of them, as the clear refusal it deserves; anything else is not ours to name. */
export function missingTracePackage(error: unknown): TelemetryConfigError | undefined {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return undefined;
  const name = Object.keys(TRACE_PACKAGES).find(
    (n) => message?.includes(`'${n}`) || message?.includes(`"${n}`),
  );
  if (!name) return undefined;
  return new TelemetryConfigError(
    `OTEL_TRACES_EXPORTER asks for traces, and ${name} is not installed: the OpenTelemetry packages are optional (traces are off by default). Install them beside vcw: ${installTracePackages()}`,
  );
}
