import type { Logger } from "pino";
import type { SinkDefinition } from "../config/sink-definition.ts";
import type { Sink } from "../sinks/delivery.ts";
import { emailSink } from "../sinks/email-sink.ts";
import { fileSink } from "../sinks/file-sink.ts";
import { logSink } from "../sinks/log-sink.ts";
import { SinkError } from "../sinks/sink-error.ts";
import { slackSink } from "../sinks/slack-sink.ts";
import { webhookSink } from "../sinks/webhook-sink.ts";

/** A sink from its definition; secrets are read from the environment now, never stored. */
export function createSink(
  name: string,
  def: SinkDefinition,
  deps: { logger: Logger; env?: NodeJS.ProcessEnv },
): Sink {
  const env = deps.env ?? process.env;
  switch (def.type) {
    case "webhook": {
      const secret = def.secretEnv ? env[def.secretEnv] : undefined;
      if (def.secretEnv && !secret)
        throw new SinkError(name, `the secret variable ${def.secretEnv} is not set`);
      return webhookSink(name, { url: def.url, secret, timeoutMs: def.timeoutMs });
    }
    case "slack": {
      const url = env[def.urlEnv];
      if (!url) throw new SinkError(name, `the webhook URL variable ${def.urlEnv} is not set`);
      return slackSink(name, { url, timeoutMs: def.timeoutMs });
    }
    case "file":
      return fileSink({ dir: def.dir });
    case "log":
      return logSink(deps.logger);
    case "email": {
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
    }
  }
}
