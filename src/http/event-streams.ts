import type { ServerResponse } from "node:http";

/**
 * The live dashboards' server-sent-event streams: at most `max` at once, all fed from one timer.
 * Each tick the overview is read and serialised once per kind of viewer (phones masked or shown),
 * and only the streams of a kind whose text changed are written to. A viewer that doesn't read
 * (its socket's buffer full) is not written to: it gets the latest overview once it drains (only
 * the latest matters), and a stream still stalled after `stalledMs` is closed (a live browser
 * reconnects), so a stalled reader holds one overview at most, not one per tick.
 */
export interface EventStreams {
  /** False when `max` streams are open already. */
  open(res: ServerResponse, kind: string): boolean;
  size(): number;
  close(): void;
}

/** `read(kind)`: the event's data and the part of it that counts as news (without its time stamp). */
export type ReadEvent = (kind: string) => Promise<{ data: string; content: string }>;

/** How long a stream may stay unable to take more before it is closed. */
export const STALLED_MS = 30_000;

export function eventStreams(
  read: ReadEvent,
  o: { max: number; everyMs: number; stalledMs?: number },
): EventStreams {
  const streams = new Map<ServerResponse, string>();
  const sent = new Map<string, string>();
  /** The last event of each kind, for a stream that drains after missing it. */
  const latest = new Map<string, string>();
  /** Streams that could not take an event, and since when. */
  const stalled = new Map<ServerResponse, number>();
  let ticks = 0;
  let timer: NodeJS.Timeout | undefined;
  let busy = false;

  const writeTo = (res: ServerResponse, text: string) => {
    if (!res.writableNeedDrain) return void res.write(text);
    const since = stalled.get(res) ?? Date.now();
    stalled.set(res, since);
    if (Date.now() - since > (o.stalledMs ?? STALLED_MS)) res.destroy();
  };
  const writeAll = (kind: string, text: string) => {
    latest.set(kind, text);
    for (const [res, k] of streams) if (k === kind) writeTo(res, text);
  };
  async function tick(): Promise<void> {
    if (busy) return;
    busy = true;
    try {
      ticks += 1;
      for (const kind of new Set(streams.values())) {
        const e = await read(kind);
        if (e.content === sent.get(kind)) continue;
        sent.set(kind, e.content);
        writeAll(kind, `event: overview\ndata: ${e.data}\n\n`);
      }
      // A comment now and then keeps proxies from closing a quiet stream.
      if (ticks % 15 === 0) for (const res of streams.keys()) writeTo(res, ": still here\n\n");
    } finally {
      busy = false;
    }
  }
  const stopIfIdle = () => {
    if (streams.size > 0 || !timer) return;
    clearInterval(timer);
    timer = undefined;
    sent.clear();
    latest.clear();
  };

  return {
    open(res, kind) {
      if (streams.size >= o.max) return false;
      streams.set(res, kind);
      res.on("close", () => {
        streams.delete(res);
        stalled.delete(res);
        stopIfIdle();
      });
      res.on("drain", () => {
        if (!stalled.delete(res)) return;
        const text = latest.get(kind);
        if (text) res.write(text);
      });
      res.write("retry: 2000\n\n");
      // A new viewer gets the latest at once, from the text already made when there is one.
      void read(kind)
        .then((e) => {
          if (streams.has(res)) res.write(`event: overview\ndata: ${e.data}\n\n`);
          if (!sent.has(kind)) sent.set(kind, e.content);
        })
        .catch(() => undefined);
      timer ??= setInterval(() => void tick().catch(() => undefined), o.everyMs);
      return true;
    },
    size: () => streams.size,
    close() {
      for (const res of streams.keys()) res.end();
      streams.clear();
      stalled.clear();
      stopIfIdle();
    },
  };
}
