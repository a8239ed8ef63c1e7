import type { SinkFactory } from "../delivery.ts";
import { SinkError } from "../sink-error.ts";
import { slackSink } from "./slack-sink.ts";

export const createSlackSink: SinkFactory<"slack"> = (name, def, { env }) => {
  const url = env[def.urlEnv];
  if (!url) throw new SinkError(name, `the webhook URL variable ${def.urlEnv} is not set`);
  return slackSink(name, { url, timeoutMs: def.timeoutMs });
};
