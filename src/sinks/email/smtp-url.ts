import { SinkError } from "../sink-error.ts";

/** What nodemailer needs of an SMTP URL, parsed once so nodemailer never parses (nor prints) the URL. */
export interface SmtpTarget {
  host: string;
  port: number;
  secure: boolean;
  auth?: { user: string; pass: string };
}

const HOW =
  "write smtp://user:password@host:587 or smtps://user:password@host:465, with / # ? @ : in the user or password percent-encoded";

/**
 * The SMTP URL a variable holds, or a SinkError that says what is wrong with it and repeats
 * nothing of it (its password may sit anywhere in a malformed one).
 */
export function parseSmtpUrl(sink: string, variable: string, value: string): SmtpTarget {
  const refuse = (why: string) => new SinkError(sink, `the variable ${variable} ${why}: ${HOW}`);
  if (!/^smtps?:\/\//i.test(value)) throw refuse("must hold an smtp:// or smtps:// URL");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse("does not hold a well-formed URL");
  }
  if (!url.hostname) throw refuse("names no host");
  if ((url.pathname !== "" && url.pathname !== "/") || url.hash || url.search)
    throw refuse("has a path, query or fragment after the host (a character of the password not encoded?)");
  const secure = url.protocol === "smtps:";
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      throw refuse("has a user or password whose percent-encoding is broken");
    }
  };
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...(url.username ? { auth: { user: decode(url.username), pass: decode(url.password) } } : {}),
  };
}
