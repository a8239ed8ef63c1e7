import type { Delivery, Sink } from "./delivery.ts";
import { postJson } from "./post-json.ts";
import { payloadText } from "./summary-text.ts";

/** A Slack incoming-webhook message with a readable summary. */
export function slackSink(name: string, o: { url: string; timeoutMs: number }): Sink {
  return {
    async deliver(d: Delivery) {
      await postJson(name, o.url, JSON.stringify({ text: payloadText(d.payload) }), {}, o.timeoutMs);
    },
  };
}
