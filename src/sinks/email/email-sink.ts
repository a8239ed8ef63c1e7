import type { Transporter } from "nodemailer";
import { maskPhonesIn } from "../../lib/mask-phone.ts";
import { periodText } from "../../pipeline/reports/format.ts";
import type { Payload } from "../../pipeline/reports/model.ts";
import type { Delivery, Sink } from "../delivery.ts";
import { PermanentSinkError } from "../permanent-sink-error.ts";
import { SinkError } from "../sink-error.ts";
import { payloadText } from "../summary-text.ts";
import { parseSmtpUrl, type SmtpTarget } from "./smtp-url.ts";

export interface EmailSinkOptions {
  /** smtp:// or smtps:// with its credentials (a secret: it appears in no log or error). */
  url: string;
  /** The variable the URL came from, named when it is malformed. */
  urlEnv?: string;
  from: string;
  to: readonly string[];
  /** May use {job}, {period}, {kind} and {campaign}. */
  subject: string;
  timeoutMs: number;
}

export const DEFAULT_SUBJECT = "{job}: {kind} {period}";

/** The subject of a payload, from the template. Pure. */
export function subjectOf(template: string, p: Payload): string {
  const fields: Record<string, string> =
    p.kind === "report"
      ? { job: p.job, period: periodText(p.period), kind: "report", campaign: "" }
      : {
          job: p.campaign.job,
          period: p.generatedAt,
          kind: p.kind,
          campaign: maskPhonesIn(p.campaign.name),
        };
  return template.replace(/\{(job|period|kind|campaign)\}/g, (_, k: string) => fields[k] ?? "").trim();
}

/** The user and password, raw and encoded, so no error repeats them. */
function secretsOf(url: string, target: SmtpTarget): string[] {
  const auth = target.auth ? [target.auth.user, target.auth.pass] : [];
  const raw = /^[^:]+:\/\/([^@]*)@/.exec(url)?.[1]?.split(":") ?? [];
  return [...auth, ...raw].filter((s) => s.length >= 3);
}

/** Every secret replaced, in any case: a URL's host part comes back lowercased. */
const scrub = (text: string, secrets: readonly string[]) =>
  secrets.reduce(
    (t, s) => t.replace(new RegExp(s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi"), "***"),
    text,
  );

/** SMTP's permanent replies (5xx): retrying sends the same refused mail again. */
const isPermanentReply = (code: number | undefined) => code !== undefined && code >= 500 && code < 600;

/**
 * E-mail through SMTP (nodemailer): a report as HTML with its charts as inline PNG images plus a
 * plain-text part; a summary as text. The Message-ID comes from the delivery's idempotency key, so
 * a receiver can tell a retried message from a new one.
 */
export function emailSink(name: string, o: EmailSinkOptions): Sink {
  const target = parseSmtpUrl(name, o.urlEnv ?? "holding the SMTP URL", o.url);
  const secrets = secretsOf(o.url, target);
  return {
    async deliver(d: Delivery) {
      const p = d.payload;
      let transport: Transporter | undefined;
      try {
        // Loaded on the first mail: commands that send none don't pay for it.
        const { default: nodemailer } = await import("nodemailer");
        transport = nodemailer.createTransport({
          ...target,
          connectionTimeout: o.timeoutMs,
          greetingTimeout: o.timeoutMs,
          socketTimeout: o.timeoutMs,
          logger: false,
          debug: false,
        });
        const body =
          p.kind === "report"
            ? await import("./report-email.ts")
                .then(({ reportEmail }) => reportEmail(p))
                .then((m) => ({ html: m.html, text: m.text, attachments: m.images }))
            : { text: payloadText(p) };
        await transport.sendMail({
          from: o.from,
          to: [...o.to],
          subject: subjectOf(o.subject, p),
          messageId: `<${d.idempotencyKey}@vcw>`,
          ...body,
        });
      } catch (error) {
        const e = error as Error & { responseCode?: number; code?: string };
        const what = e.responseCode ? `SMTP ${e.responseCode}` : (e.code ?? "error");
        const message = `sending mail failed (${what}): ${scrub(e.message, secrets)}`;
        if (isPermanentReply(e.responseCode))
          throw new PermanentSinkError(name, `${message}; a permanent reply, not retried`);
        throw new SinkError(name, message);
      } finally {
        transport?.close();
      }
    },
  };
}
