import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

export interface TestServer {
  /** Base URL ending in `/api/v1`. */
  url: string;
  /** TCP connections accepted so far. */
  connections: number;
  requests: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[];
  close(): Promise<void>;
}

/** A real local HTTP server whose answers the test decides. */
export async function startHttpServer(
  handle: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<TestServer> {
  const state = { connections: 0, requests: [] as TestServer["requests"] };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += String(c);
    });
    req.on("end", () => {
      state.requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      handle(req, res, body);
    });
  });
  server.on("connection", () => {
    state.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    get connections() {
      return state.connections;
    },
    requests: state.requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

/**
 * Sends the status and headers, then `chunk` every `everyMs` until the client goes away: a
 * body that never ends. `first` is written at once, so the headers certainly leave.
 */
export function sendTrickle(
  res: ServerResponse,
  status: number,
  { everyMs, first = "[", chunk = " " }: { everyMs: number; first?: string; chunk?: string },
) {
  res.writeHead(status, { "content-type": "application/json" });
  res.write(first);
  const timer = setInterval(() => res.write(chunk), everyMs);
  res.on("close", () => clearInterval(timer));
}

/**
 * Sends `paddingBytes` of spaces, then `body` as JSON (valid JSON as a whole), honouring
 * backpressure. Resolves with the bytes the server managed to write before the body ended or
 * the client went away.
 */
export function sendPaddedJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  paddingBytes: number,
  headers: Record<string, string> = {},
): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024, " ");
  res.writeHead(status, { "content-type": "application/json", ...headers });
  let written = 0;
  return new Promise((resolve) => {
    res.on("close", () => resolve(written));
    const pump = () => {
      while (written < paddingBytes && !res.destroyed) {
        const part = chunk.subarray(0, Math.min(chunk.length, paddingBytes - written));
        written += part.length;
        if (!res.write(part)) return void res.once("drain", pump);
      }
      if (!res.destroyed) res.end(JSON.stringify(body));
    };
    pump();
  });
}
