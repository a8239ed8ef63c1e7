export * from "./client.ts";
export * from "./errors/index.ts";
export type { AttemptOutcome, RequestGate } from "./gate.ts";
export type { ClientLogger } from "./logger.ts";
export * from "./operations.ts";
export * from "./retry-policy.ts";
export * from "./schemas/index.ts";
export * from "./secrets.ts";
export type { RequestOptions } from "./transport.ts";
