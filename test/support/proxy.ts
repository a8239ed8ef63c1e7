import type { IncomingMessage } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { sendJson, startHttpServer, type TestServer } from "./http-server.ts";

/**
 * What the proxy does with one request: pass it on (and maybe answer otherwise, or only once
 * `holdUntil` settles, as a request queue does), or answer itself.
 */
export type ProxyRule = (
  req: IncomingMessage,
  body: string,
) =>
  | { answer: number }
  | { pass: true; thenAnswer?: number; holdUntil?: Promise<unknown> }
  | { holdMs: number }
  | undefined;

/**
 * A real HTTP server in front of `target` (an `/api/v1` base URL), standing for a service that
 * misbehaves as `rule` says: `answer` without passing the request on, or pass it on and answer
 * `thenAnswer` instead of the service's answer (a write applied, its answer lost), or hold it
 * `holdMs` and then pass it on (a queue in front of the service, after the client gave up).
 */
export function startProxy(target: string, rule: ProxyRule): Promise<TestServer> {
  return startHttpServer((req, res, text) => {
    const r = rule(req, text) ?? { pass: true };
    if ("answer" in r) return sendJson(res, r.answer, { error: r.answer, message: "proxy says no" });
    const held = "holdMs" in r ? sleep(r.holdMs) : "holdUntil" in r ? r.holdUntil : undefined;
    (held ?? Promise.resolve())
      .then(() => forward(target, req, text))
      .then(
        (answer) =>
          "thenAnswer" in r && r.thenAnswer
            ? sendJson(res, r.thenAnswer, { error: r.thenAnswer, message: "lost" })
            : sendJson(res, answer.status, answer.body),
        () => res.destroy(),
      );
  });
}

async function forward(target: string, req: IncomingMessage, text: string) {
  const answer = await fetch(`${target}${req.url!.replace(/^\/api\/v1/, "")}`, {
    method: req.method!,
    headers: { "content-type": "application/json", "x-api-key": String(req.headers["x-api-key"]) },
    ...(text ? { body: text } : {}),
  });
  const body = await answer.text();
  return { status: answer.status, body: body ? JSON.parse(body) : undefined };
}

/**
 * A request queue that holds the first request `matches` picks until the next one it picks has
 * gone through, then forwards it `afterMs` later (1 s: a create held past vcw's re-send, landing
 * after it). `held()`: how many it picked.
 */
export function heldUntilNext(matches: (req: IncomingMessage, body: string) => boolean, afterMs = 1_000) {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let picked = 0;
  const rule: ProxyRule = (req, body) => {
    if (!matches(req, body)) return undefined;
    picked += 1;
    if (picked === 1) return { pass: true, holdUntil: released };
    setTimeout(release, afterMs);
    return undefined;
  };
  return { rule, held: () => picked };
}

/** A campaign create whose body holds `text` (a follow-up's or a hand-back's name). */
export const campaignCreateWith = (text: string) => (req: IncomingMessage, body: string) =>
  req.method === "POST" && req.url?.endsWith("/campaign/create") === true && body.includes(text);
