import type { SinkFactory } from "../delivery.ts";
import { SinkError } from "../sink-error.ts";
import { webhookSink } from "./webhook-sink.ts";

export const createWebhookSink: SinkFactory<"webhook"> = (name, def, { env }) => {
  const secret = def.secretEnv ? env[def.secretEnv] : undefined;
  if (def.secretEnv && !secret) throw new SinkError(name, `the secret variable ${def.secretEnv} is not set`);
  return webhookSink(name, { url: def.url, secret, timeoutMs: def.timeoutMs });
};
