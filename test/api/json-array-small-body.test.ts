import { describe, expect, it } from "vitest";
import { readJsonArray } from "../../src/api/json-array-stream.ts";

/** The body as a stream of chunks of `size` bytes. */
const streamOf = (text: string, size = 1_000) => {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += size) controller.enqueue(bytes.subarray(i, i + size));
      controller.close();
    },
  });
};

async function read(text: string) {
  const items: unknown[] = [];
  let chunks = 0;
  try {
    await readJsonArray(streamOf(text), {
      onItem: (item) => void items.push(item),
      afterChunk: () => {
        chunks += 1;
        return undefined;
      },
      maxItemBytes: 1_000_000,
    });
    return { items, chunks };
  } catch (error) {
    return { error: (error as Error).name, items };
  }
}

// Leading whitespace is skipped: 70 KB of it makes the same body too large to be read whole.
const streamed = (text: string) => read(" ".repeat(70_000) + text);

describe("a small body is read whole, with the streaming parser's results and errors", () => {
  const entry = (i: number) => ({
    id: `e${i}`,
    phone: `+1415555${String(i).padStart(4, "0")}`,
    status: "queued",
  });
  const bodies = [
    JSON.stringify([entry(1), entry(2), entry(3)]),
    `\uFEFF \n${JSON.stringify([entry(4)])}`,
    "[]",
    JSON.stringify([{ nested: { a: [1, 2.5, null, true] }, text: 'é \\u00e9 " quote' }, 7, "x"]),
    '{"entries": []}',
    "[1, 2",
    "<html>busy</html>",
    "",
    "   ",
    "[] trailing",
  ];

  it.each(bodies.map((b) => [b.slice(0, 30), b]))("%s", async (_, body) => {
    const whole = await read(body);
    const parsed = await streamed(body);
    expect(whole.error).toBe(parsed.error);
    if (!whole.error) expect(whole.items).toEqual(parsed.items);
  });

  it("a small body is one chunk for the caller; a large one is many", async () => {
    const body = JSON.stringify(Array.from({ length: 30 }, (_, i) => entry(i)));
    expect((await read(body)).chunks).toBe(1);
    expect((await streamed(body)).chunks).toBeGreaterThan(1);
  });

  it("a callback that fails is the callback's error on either path", async () => {
    for (const text of ["[1,2,3]", `${" ".repeat(70_000)}[1,2,3]`]) {
      const error = await readJsonArray(streamOf(text), {
        onItem: () => {
          throw new Error("boom");
        },
        maxItemBytes: 1_000_000,
      }).catch((e: Error) => e);
      expect((error as Error).name).toBe("ItemCallbackError");
    }
  });
});
