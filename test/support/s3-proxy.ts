import { createServer, type IncomingMessage, request } from "node:http";

/** What the proxy does with one request: pass it on, or answer with an S3 error itself. */
export type S3Rule = (req: IncomingMessage) => { status: number; code: string } | undefined;

export interface S3Proxy {
  endpoint: string;
  /** Every request seen: method and path with its query. */
  seen: { method: string; url: string }[];
  close(): Promise<void>;
}

/**
 * A real HTTP server in front of an S3 endpoint that passes requests on byte for byte (headers
 * untouched, so signatures hold) unless `rule` answers with an S3 error of its own: a store that
 * says SlowDown, or refuses a token.
 */
export async function startS3Proxy(target: string, rule: S3Rule = () => undefined): Promise<S3Proxy> {
  const seen: S3Proxy["seen"] = [];
  const to = new URL(target);
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "" });
    const refused = rule(req);
    if (refused) {
      req.resume();
      res.writeHead(refused.status, { "content-type": "application/xml" });
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refused.code}</Code><Message>the proxy says ${refused.code}</Message><RequestId>proxy</RequestId></Error>`,
      );
      return;
    }
    const upstream = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
