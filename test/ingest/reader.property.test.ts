import fc from "fast-check";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { ContactCreate } from "../../src/api/index.ts";
import { ContactFileReader, IngestFileError } from "../../src/ingest/index.ts";
import { tempDir, writeFixture } from "../support/files.ts";

const dir = tempDir("vcw-prop-");
const HEADERS = ["First Name", "Last Name", "Email", "Notes", "Company", "Mobile"];
const phone = fc.oneof(
  fc
    .integer({ min: 2_000_000, max: 9_999_999 })
    .map((n) => `(415) ${String(n).slice(0, 3)}-${String(n).slice(3)}`),
  fc.constantFrom("", "12", "4.4E+11", "+44 7911 123456", "n/a", "4155550101"),
  fc.string(),
);
const cell = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.constantFrom("", " ", "\u00A0", '"', ",", ";", "\r\n", "=1+1"),
);

const file = fc.record({
  extra: fc.subarray(HEADERS, { minLength: 1 }),
  rows: fc.array(
    fc.oneof(
      { weight: 5, arbitrary: fc.tuple(phone, fc.array(cell, { minLength: 6, maxLength: 7 })) },
      { weight: 1, arbitrary: fc.constant(null) }, // a blank line
    ),
    { maxLength: 40 },
  ),
  trailingNewline: fc.boolean(),
  delimiter: fc.constantFrom(",", ";", "\t", "|"),
  newline: fc.constantFrom("\n", "\r\n", "\r"),
  encoding: fc.constantFrom("utf8", "utf8bom", "utf16le", "utf16be", "win1252" as const),
  garbage: fc.option(fc.uint8Array({ minLength: 1, maxLength: 64 }), { freq: 5 }),
});

describe("reader, on generated files", () => {
  it("never throws anything but an IngestFileError, and the accounting always adds up", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        file,
        async ({ extra, rows, delimiter, newline, encoding, garbage, trailingNewline }) => {
          const headers = ["Phone", ...extra];
          const data = rows.map((row) =>
            row ? [row[0], ...row[1].slice(0, extra.length)] : headers.map(() => ""),
          );
          let text = Papa.unparse({ fields: headers, data }, { delimiter, newline, skipEmptyLines: false });
          if (trailingNewline) text += newline;
          let content: string | Buffer = text;
          if (garbage) {
            const bytes = Buffer.from(text, "utf8");
            const at = Math.floor(bytes.length / 2);
            content = Buffer.concat([bytes.subarray(0, at), Buffer.from(garbage), bytes.subarray(at)]);
            text = "";
          }
          const path = writeFixture(dir, `p${n++}.csv`, content, encoding);
          try {
            const reader = await ContactFileReader.open(path, { defaultCountry: "US" });
            let outcomes = 0;
            const phones = new Set<string>();
            for await (const outcome of reader) {
              outcomes++;
              if (outcome.kind === "valid") {
                expect(ContactCreate.safeParse(outcome.contact).success).toBe(true);
                expect(phones.has(outcome.phone)).toBe(false);
                phones.add(outcome.phone);
              }
            }
            const t = reader.totals;
            expect(t.total).toBe(outcomes);
            expect(t.total).toBe(t.valid + t.rejected + t.duplicates + t.skipped);
            const blank = (r: string[]) => r.every((c) => c.trim() === "");
            if (text && reader.info.delimiter === delimiter) {
              expect(t.total).toBe(data.filter((r) => !blank(r)).length);
            }
          } catch (error) {
            if (!(error instanceof IngestFileError)) throw error;
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
