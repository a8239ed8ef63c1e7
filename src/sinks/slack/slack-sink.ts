import type { Delivery, Sink } from "../delivery.ts";
import { postJson } from "../post-json.ts";
import { payloadText } from "../summary-text.ts";
import { reportBlocks, slackEscape } from "./report-slack.ts";

/** A Slack incoming-webhook message with a readable summary; a report in Block Kit. */
export function slackSink(name: string, o: { url: string; timeoutMs: number }): Sink {
  return {
    async deliver(d: Delivery) {
      const p = d.payload;
      const body = p.kind === "report" ? reportBlocks(p, p.pageUrl) : { text: slackEscape(payloadText(p)) };
      await postJson(name, o.url, JSON.stringify(body), {}, o.timeoutMs);
    },
  };
}
