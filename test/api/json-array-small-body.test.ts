import fc from "fast-check";
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

/** The body streamed in chunks of the sizes given, in turn (the streaming path, whatever its size). */
async function readChunked(text: string, sizes: readonly number[]) {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // Space enough that the body is not read whole, in one chunk: then the body cut small.
      controller.enqueue(new TextEncoder().encode(" ".repeat(70_000)));
      for (let i = 0, k = 0; i < bytes.length; k++) {
        const size = sizes[k % sizes.length]!;
        controller.enqueue(bytes.subarray(i, i + size));
        i += size;
      }
      controller.close();
    },
  });
  const items: unknown[] = [];
  try {
    await readJsonArray(body, { onItem: (item) => void items.push(item), maxItemBytes: 1_000_000 });
    return { items };
  } catch (error) {
    return { error: (error as Error).name };
  }
}

describe("the streaming path's splitter (json-array-split.ts) reads what JSON.parse reads, cut anywhere", () => {
  it("any JSON array, spaced any way, in chunks of any sizes: the same elements", async () => {
    const spaces = fc.constantFrom("", " ", "\n", "\t", " \r\n ");
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.jsonValue()),
        spaces,
        spaces,
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 4 }),
        async (values, before, after, sizes) => {
          const text = `[${before}${values.map((v) => JSON.stringify(v)).join(`${after},${before}`)}${after}]${after}`;
          const read = await readChunked(text, sizes);
          expect(read.error).toBeUndefined();
          // Round-tripped: JSON has no -0, and JSON.parse gives 0 for it.
          expect(read.items).toEqual(JSON.parse(text));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a body one character away from a JSON array: an error exactly when JSON.parse finds one", async () => {
    const base = JSON.stringify([{ a: 'x\\"y]', b: [1, { c: null }], d: -2.5e3 }, "s", true, 7]);
    const alphabet = [...'[]{},:"\\ 01aenlrstu-.'];
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: base.length }),
        fc.constantFrom("insert", "delete", "replace"),
        fc.constantFrom(...alphabet),
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 3 }),
        async (at, how, ch, sizes) => {
          const text =
            how === "insert"
              ? base.slice(0, at) + ch + base.slice(at)
              : how === "delete"
                ? base.slice(0, at) + base.slice(at + 1)
                : base.slice(0, at) + ch + base.slice(at + 1);
          let whole: unknown;
          try {
            whole = JSON.parse(text);
          } catch {
            whole = undefined;
          }
          const read = await readChunked(text, sizes);
          if (Array.isArray(whole)) expect(read).toEqual({ items: whole });
          else expect(read.error).toBe("NotAJsonArray");
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it("an element over the cap is too large, whether it fits in one chunk or spans several", async () => {
    const big = JSON.stringify(["x".repeat(2_000)]);
    for (const size of [100_000, 300]) {
      const bytes = new TextEncoder().encode(" ".repeat(70_000) + big);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += size) controller.enqueue(bytes.subarray(i, i + size));
          controller.close();
        },
      });
      const error = await readJsonArray(body, { onItem: () => {}, maxItemBytes: 1_000 }).catch(
        (e: Error) => e,
      );
      expect((error as Error).name, `chunks of ${size}`).toBe("JsonItemTooLarge");
    }
  });
});

describe("found by a review of the splitter (decision 0082)", () => {
  const pad = " ".repeat(70_000);
  const chunks = (parts: string[]) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of parts) c.enqueue(new TextEncoder().encode(p));
        c.close();
      },
    });
  async function run(parts: string[], o: { throwOn?: (item: unknown) => boolean; max?: number } = {}) {
    const items: unknown[] = [];
    try {
      await readJsonArray(chunks(parts), {
        onItem: (item) => {
          if (o.throwOn?.(item)) throw new Error("callback boom");
          items.push(item);
        },
        maxItemBytes: o.max ?? 1_000_000,
      });
      return { items };
    } catch (e) {
      return { error: (e as Error).name, message: (e as Error).message, items };
    }
  }

  it("a callback's failure is the read's error, whatever fault of the body follows it in the chunk", async () => {
    expect((await run([pad, "[1, 2 3]"], { throwOn: (x) => x === 1 })).error).toBe("ItemCallbackError");
    expect((await run([pad, `[1, "${"x".repeat(200)}"]`], { throwOn: (x) => x === 1, max: 100 })).error).toBe(
      "ItemCallbackError",
    );
    expect((await run([pad, "[1, 2", " 3]"], { throwOn: (x) => x === 1 })).error).toBe("ItemCallbackError");
  });

  it("a byte-order mark before an element is refused, as JSON.parse refuses it", async () => {
    for (const text of ["[1,\uFEFF2]", '[\uFEFF{"phone":"+14155550100"}]', '["a",\uFEFF"b"]']) {
      expect(() => JSON.parse(text)).toThrow();
      expect((await run([text])).error, text).toBe("NotAJsonArray");
      expect((await run([pad, text])).error, text).toBe("NotAJsonArray");
    }
  });

  it("what JSON.parse quotes of a bad element stays out of the error: no phone, no name", async () => {
    // V8 quotes what it read around the fault: 'Unexpected token ',', "{"x":tru,"n":"Love"... is not valid JSON'.
    const bad = '[1, {"x":tru,"n":"Lovelace","phone":"+14155550199"}]';
    for (const parts of [[bad], [pad, bad]]) {
      const r = await run(parts);
      expect(r.error).toBe("NotAJsonArray");
      expect(r.message).toMatch(/Unexpected token/);
      expect(r.message).not.toMatch(/Love|"x"/);
    }
  });
});
