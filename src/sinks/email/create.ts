import type { SinkFactory } from "../delivery.ts";
import { SinkError } from "../sink-error.ts";
import { emailSink } from "./email-sink.ts";

export const createEmailSink: SinkFactory<"email"> = (name, def, { env }) => {
  const url = env[def.urlEnv];
  if (!url) throw new SinkError(name, `the SMTP URL variable ${def.urlEnv} is not set`);
  return emailSink(name, {
    url,
    urlEnv: def.urlEnv,
    from: def.from,
    to: def.to,
    subject: def.subject,
    timeoutMs: def.timeoutMs,
  });
};
