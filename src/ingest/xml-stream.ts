import type { Readable } from "node:stream";
import { SaxesParser, type SaxesTagPlain } from "saxes";

/** What one workbook may still inflate to; shared by every part read from it. */
export class InflateBudget {
  used = 0;
  constructor(readonly limit: number) {}
  /** Counts `bytes`; false once past the limit. */
  take(bytes: number): boolean {
    this.used += bytes;
    return this.used <= this.limit;
  }
}

/** Why a part's text was refused before it was parsed. */
export type XmlLimit = "inflate" | "part" | "text";

/**
 * A part's XML as decoded text chunks, counted against the budget (and a limit of its own), and
 * with every run between two "<" bounded to `maxRun` characters, so that neither a cell, a tag nor
 * whitespace between tags (1 GB of it inside <sheetData>) grows past it in the parser.
 * `refuse` turns a limit into the error thrown.
 */
export async function* xmlText(
  stream: Readable,
  budget: InflateBudget,
  partBytes: number,
  maxRun: number,
  refuse: (limit: XmlLimit) => Error,
): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  let bytes = 0;
  let sinceTag = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (!budget.take(chunk.length)) throw refuse("inflate");
      if (bytes > partBytes) throw refuse("part");
      const text = decoder.decode(chunk, { stream: true });
      sinceTag = longestRun(text, sinceTag, maxRun);
      if (sinceTag > maxRun) throw refuse("text");
      yield text;
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  } finally {
    stream.destroy();
  }
}

/** Characters since the last "<" at the end of `text`, or past `max` as soon as a run is. */
function longestRun(text: string, carried: number, max: number): number {
  let start = -carried;
  for (let at = text.indexOf("<"); at >= 0; at = text.indexOf("<", at + 1)) {
    if (at - start > max) return at - start;
    start = at;
  }
  return text.length - start;
}

/** An element's name without its namespace prefix (`x:row` -> `row`). */
export const localName = (name: string) => {
  const colon = name.indexOf(":");
  return colon < 0 ? name : name.slice(colon + 1);
};

/** An attribute by its local name. */
export function attribute(tag: SaxesTagPlain, name: string): string | undefined {
  const direct = tag.attributes[name];
  if (direct !== undefined) return direct;
  for (const [key, value] of Object.entries(tag.attributes)) if (localName(key) === name) return value;
  return undefined;
}

export interface XmlHandlers {
  open?(name: string, tag: SaxesTagPlain): void;
  close?(name: string): void;
  text?(text: string): void;
}

/** A non-validating parser calling the handlers with local names; entities are decoded. */
export function xmlParser(handlers: XmlHandlers): SaxesParser {
  const parser = new SaxesParser({ position: false });
  const { open, close, text } = handlers;
  if (open) parser.on("opentag", (tag) => open(localName(tag.name), tag as SaxesTagPlain));
  if (close) parser.on("closetag", (tag) => close(localName(tag.name)));
  if (text) parser.on("text", text);
  return parser;
}
