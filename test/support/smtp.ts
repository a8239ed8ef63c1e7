import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A real SMTP server on a free port of 127.0.0.1, requiring a login, keeping each message it accepts. */
export async function startSmtpServer(
  login: { user: string; password: string },
  o: { refuse?: () => { code: number; message: string } | undefined } = {},
) {
  let attempts = 0;
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === login.user && auth.password === login.password)
        return cb(null, { user: login.user });
      return cb(new Error("Invalid username or password"));
    },
    onData(stream, _session, cb) {
      attempts += 1;
      const refusal = o.refuse?.();
      if (refusal) {
        stream.resume();
        stream.on("end", () => cb(Object.assign(new Error(refusal.message), { responseCode: refusal.code })));
        return;
      }
      simpleParser(stream, { keepCidLinks: true })
        .then((m) => {
          received.push(m);
          cb();
        })
        .catch(cb);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    received,
    /** Messages offered (DATA commands), accepted or refused. */
    attempts: () => attempts,
    port,
    url: `smtp://${login.user}:${login.password}@127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
