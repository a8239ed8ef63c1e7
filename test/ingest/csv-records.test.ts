import fc from "fast-check";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { RecordScanner } from "../../src/ingest/csv-records.ts";
import { IngestFileError } from "../../src/ingest/index.ts";

type Shape = { delimiter: string; linebreak: string };

/** What `scan` answers for each chunk of `text` cut at `bounds`: global indexes just past a chunk's last record end. */
function lastEnds(text: string, bounds: number[], shape: Shape): number[] {
  const scanner = new RecordScanner("t.csv", { ...shape, maxChars: 1e9 });
  const ends: number[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const end = scanner.scan(text.slice(bounds[k], bounds[k + 1]));
    if (end > 0) ends.push(bounds[k]! + end);
  }
  return ends;
}

/** Every record end: the text read a character a chunk. */
const everyEnd = (text: string, shape: Shape) =>
  lastEnds(
    text,
    Array.from({ length: text.length + 1 }, (_, i) => i),
    shape,
  );

const TOKENS = ['"', '""', ",", ";", "\t", "|", "\n", "\r", "\r\n", " ", "\u00a0", "a", "b"];

describe("record ends, where papaparse finds them (issue 43 item 2)", () => {
  it("for any text, delimiter, line end and chunking, each record the scanner cuts is one record to papaparse", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }),
        fc.constantFrom(",", ";", "\t", "|"),
        fc.constantFrom("\n", "\r\n", "\r"),
        (tokens, delimiter, linebreak) => {
          const text = tokens.join("");
          const config = { delimiter, newline: linebreak as "\n", quoteChar: '"', escapeChar: '"' };
          const whole = Papa.parse<string[]>(text, config).data;
          const ends = everyEnd(text, { delimiter, linebreak });
          const starts = [0, ...ends];
          for (const [k, end] of ends.entries()) {
            expect(Papa.parse(text.slice(starts[k], end), config).data).toEqual([whole[k], [""]]);
          }
          const rest = text.slice(starts.at(-1));
          if (rest !== "") expect(Papa.parse(rest, config).data).toEqual([whole[ends.length]]);
          expect(whole.length).toBe(text === "" ? 0 : ends.length + 1);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("the state carries across chunks: cut anywhere, each chunk's last record end is the same", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...TOKENS), { maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.constantFrom("\n", "\r\n", "\r"),
        (tokens, cuts, linebreak) => {
          const text = tokens.join("");
          const shape = { delimiter: ",", linebreak };
          const bounds = [...new Set([0, ...cuts.map((c) => c % (text.length + 1)), text.length])].sort(
            (a, b) => a - b,
          );
          const all = everyEnd(text, shape);
          const expected = bounds
            .slice(1)
            .map((to, k) => all.filter((e) => e > bounds[k]! && e <= to).at(-1))
            .filter((e) => e !== undefined);
          expect(lastEnds(text, bounds, shape)).toEqual(expected);
        },
      ),
      { numRuns: 1_000 },
    );
  });
});

describe("a record past the limit fails the file at once, naming where it began", () => {
  const scan = (text: string, maxChars: number, linebreak = "\n") => {
    const scanner = new RecordScanner("f.csv", { delimiter: ",", linebreak, maxChars });
    try {
      for (let i = 0; i < text.length; i += 7) scanner.scan(text.slice(i, i + 7));
    } catch (error) {
      return error as IngestFileError;
    }
    return undefined;
  };

  it("a quoted field left open: field_too_long, on the line its quote opened", () => {
    const error = scan(`Name,Phone,Notes\nA,1,ok\nB,2,"${"x\n".repeat(100)}`, 50);
    expect(error).toBeInstanceOf(IngestFileError);
    expect(error).toMatchObject({ code: "field_too_long" });
    expect(error!.message).toBe(
      "f.csv: line 3: a quoted field runs on past 50 characters (to line 25) without its closing quote: is a quote missing? (the limit is maxLineChars)",
    );
  });

  it("a long line: line_too_long on its line; a record of several lines says which", () => {
    expect(scan(`Name,Phone\nA,1\n${"y".repeat(60)}\n`, 50)!.message).toBe(
      "f.csv: line 3: a line is longer than 50 characters: is this a CSV file?",
    );
    const joined = scan(`Name,Phone\r\nA,"1\r\n2\r\n3",${"z".repeat(60)}\r\n`, 50, "\r\n")!;
    expect(joined).toMatchObject({ code: "line_too_long" });
    expect(joined.message).toContain("lines 2-4: a line is longer than 50 characters");
  });

  it("records of exactly the limit pass, however they are cut", () => {
    expect(scan(`${"a".repeat(50)}\n"${"b\n".repeat(24)}"\n`, 50)).toBeUndefined();
    expect(scan(`${"a".repeat(51)}\n`, 50)).toMatchObject({ code: "line_too_long" });
  });

  it("quotes that close nothing before long runs of spaces: broken_quotes (papaparse would take their square)", () => {
    const text = `Name,Phone,Notes\nA,1,"${'a"b'.repeat(20)}${" ".repeat(400)},x"\n`;
    expect(scan(text, 1e6)).toMatchObject({ code: "broken_quotes" });
    expect(scan(text, 1e6)!.message).toContain("f.csv: line 2: quotes inside a quoted field close nothing");
    // A sloppy export's few stray quotes, with a few spaces, are read as papaparse reads them.
    expect(scan(`Name,Phone,Notes\nA,1,"He said "hi" to me   ",x\n`, 1e6)).toBeUndefined();
  });
});
