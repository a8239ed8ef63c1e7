/**
 * Hostile .xlsx workbooks built in code (no large binary fixtures): a ZIP writer that deflates as
 * it goes, so an archive inflating to a gigabyte is written in bounded memory, and the bombs of
 * issue 17 (a sheet inflating ~1000x, a shared-strings table, whitespace inside <sheetData>, rows
 * touching column XFD). Shared by the tests and `bench/workbook-bombs.ts`.
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { crc32, createDeflateRaw } from "node:zlib";

/** A part's text: whole, or a generator of chunks for a part too large to hold. */
export type PartContent = string | (() => Iterable<string>);

/** One part, deflated in chunks; its CRC and sizes come along. */
async function deflatePart(content: PartContent) {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (b: Buffer) => out.push(b));
  let crc = 0;
  let size = 0;
  const chunks = typeof content === "string" ? [content] : content();
  for (const chunk of chunks) {
    const bytes = Buffer.from(chunk);
    crc = crc32(bytes, crc);
    size += bytes.length;
    if (!deflate.write(bytes)) await once(deflate, "drain");
  }
  deflate.end();
  await once(deflate, "end");
  return { data: Buffer.concat(out), crc, size };
}

/**
 * A ZIP archive of deflated parts, in the order given. `stated` makes the archive lie about the
 * inflated size of the parts it names.
 */
export async function zipArchive(
  parts: [name: string, content: PartContent][],
  stated: Record<string, number> = {},
): Promise<Buffer> {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of parts) {
    const { data, crc, size } = await deflatePart(content);
    const header = (signature: number, length: number, at: number) => {
      const b = Buffer.alloc(length);
      b.writeUInt32LE(signature, 0);
      b.writeUInt16LE(20, 4);
      b.writeUInt16LE(20, 6);
      b.writeUInt16LE(8, at - 6); // deflate
      b.writeUInt32LE(crc, at);
      b.writeUInt32LE(data.length, at + 4);
      b.writeUInt32LE(stated[name] ?? size, at + 8);
      b.writeUInt16LE(Buffer.byteLength(name), at + 12);
      return b;
    };
    const local = header(0x04034b50, 30, 14);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(8, 8);
    const central = header(0x02014b50, 46, 16);
    central.writeUInt32LE(offset, 42);
    locals.push(local, Buffer.from(name), data);
    centrals.push(central, Buffer.from(name));
    offset += local.length + Buffer.byteLength(name) + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const R_NS = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

export interface SheetPart {
  name: string;
  /** The whole worksheet part, or its <sheetData> content only (see `sheetXml`). */
  xml: PartContent;
}

/** A worksheet part around rows given as XML chunks. */
export function sheetXml(rows: () => Iterable<string>): () => Iterable<string> {
  return function* () {
    yield `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet ${NS}><sheetData>`;
    yield* rows();
    yield "</sheetData></worksheet>";
  };
}

/** A row of inline strings (no shared strings needed). */
export const inlineRow = (cells: string[], r?: number) =>
  `<row${r ? ` r="${r}"` : ""}>${cells.map((c, i) => `<c r="${String.fromCharCode(65 + i)}${r ?? 1}" t="inlineStr"><is><t>${c}</t></is></c>`).join("")}</row>`;

/**
 * A workbook as Excel lays it out, except that the shared strings (when any) come after the
 * sheets, as streaming writers put them: a reader that wants them first must look ahead.
 */
export function workbookParts(sheets: SheetPart[], sharedStrings?: PartContent): [string, PartContent][] {
  const sheetEntries = sheets.map(
    (s, i) => `<sheet name="${s.name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`,
  );
  const rels = sheets.map(
    (_, i) =>
      `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
  );
  rels.push(`<Relationship Id="rIdY" Type="${REL}/styles" Target="styles.xml"/>`);
  if (sharedStrings !== undefined)
    rels.push(`<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`);
  const parts: [string, PartContent][] = [
    [
      "[Content_Types].xml",
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join("")}${sharedStrings === undefined ? "" : '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'}</Types>`,
    ],
    [
      "_rels/.rels",
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      "xl/workbook.xml",
      `<?xml version="1.0" encoding="UTF-8"?><workbook ${NS} ${R_NS}><sheets>${sheetEntries.join("")}</sheets></workbook>`,
    ],
    [
      "xl/_rels/workbook.xml.rels",
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join("")}</Relationships>`,
    ],
    [
      "xl/styles.xml",
      `<?xml version="1.0" encoding="UTF-8"?><styleSheet ${NS}><cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellXfs></styleSheet>`,
    ],
    ...sheets.map((s, i): [string, PartContent] => [`xl/worksheets/sheet${i + 1}.xml`, s.xml]),
  ];
  if (sharedStrings !== undefined) parts.push(["xl/sharedStrings.xml", sharedStrings]);
  return parts;
}

function* repeat(text: string, times: number): Iterable<string> {
  const block = text.repeat(Math.max(1, Math.floor(65_536 / text.length)));
  const perBlock = block.length / text.length;
  let left = times;
  for (; left >= perBlock; left -= perBlock) yield block;
  if (left > 0) yield text.repeat(left);
}

const HEADER = inlineRow(["Name", "Phone"], 1);
const GOOD = inlineRow(["Ana Lima", "+1 415 555 0100"], 2);

/**
 * A zip bomb: one sheet of a good row repeated until it inflates to ~`inflatedBytes`, about a
 * thousand times the archive's size. `where: "unread"` puts it in a second sheet behind a small,
 * valid first one, which alone is read.
 */
export function zipBomb(
  inflatedBytes: number,
  where: "read" | "unread" = "read",
  stated: Record<string, number> = {},
): Promise<Buffer> {
  const bomb = sheetXml(function* () {
    yield HEADER;
    yield* repeat(GOOD, Math.ceil(inflatedBytes / GOOD.length));
  });
  const small = sheetXml(function* () {
    yield HEADER;
    yield GOOD;
  });
  const sheets =
    where === "read"
      ? [{ name: "Contacts", xml: bomb }]
      : [
          { name: "Contacts", xml: small },
          { name: "Archive", xml: bomb },
        ];
  return zipArchive(workbookParts(sheets, "<sst/>"), stated);
}

/** A shared-strings table of `count` strings (`text` each) behind a small sheet that uses one. */
export function sharedStringsBomb(count: number, text = "x"): Promise<Buffer> {
  const sheet = sheetXml(function* () {
    yield HEADER;
    yield '<row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2" t="inlineStr"><is><t>+1 415 555 0100</t></is></c></row>';
  });
  const strings = function* () {
    yield `<?xml version="1.0" encoding="UTF-8"?><sst ${NS} count="${count}" uniqueCount="${count}">`;
    yield* repeat(`<si><t>${text}</t></si>`, count);
    yield "</sst>";
  };
  return zipArchive(workbookParts([{ name: "Contacts", xml: sheet }], strings));
}

/** `spaces` bytes of whitespace between two rows inside <sheetData>. */
export function whitespaceBomb(spaces: number): Promise<Buffer> {
  const sheet = sheetXml(function* () {
    yield HEADER;
    yield* repeat(" ", spaces);
    yield GOOD;
  });
  return zipArchive(workbookParts([{ name: "Contacts", xml: sheet }]));
}

/**
 * Row 2 holds more than `chars` characters of text, in short pieces no run between two tags exceeds:
 * in one cell of rich-text runs, in one shared string of runs, or in a row of cells of 1,000.
 */
export function longText(where: "cell" | "shared string" | "row", chars: number): Promise<Buffer> {
  const run = "<r><t>abcdefghij</t></r>";
  const runs = Math.ceil(chars / 10) + 1;
  const phone = '<c r="B2" t="inlineStr"><is><t>+1 415 555 0100</t></is></c>';
  const sheet = sheetXml(function* () {
    yield HEADER;
    if (where === "row") {
      yield '<row r="2">';
      yield* repeat(`<c t="inlineStr"><is><t>${"x".repeat(1000)}</t></is></c>`, Math.ceil(chars / 1000) + 1);
      yield "</row>";
    } else if (where === "cell") {
      yield '<row r="2"><c r="A2" t="inlineStr"><is>';
      yield* repeat(run, runs);
      yield `</is></c>${phone}</row>`;
    } else yield `<row r="2"><c r="A2" t="s"><v>0</v></c>${phone}</row>`;
  });
  const strings = function* () {
    yield `<?xml version="1.0" encoding="UTF-8"?><sst ${NS} count="1" uniqueCount="1"><si>`;
    yield* repeat(run, runs);
    yield "</si></sst>";
  };
  return zipArchive(
    workbookParts([{ name: "Contacts", xml: sheet }], where === "shared string" ? strings : undefined),
  );
}

/** `rows` rows with a bad phone, each touching column `last` (XFD, Excel's last, by default). */
export function widestRows(rows: number, last = "XFD"): Promise<Buffer> {
  const sheet = sheetXml(function* () {
    yield HEADER;
    for (let i = 0; i < rows; i++)
      yield `<row r="${i + 2}"><c r="A${i + 2}" t="inlineStr"><is><t>Ana</t></is></c><c r="B${i + 2}" t="inlineStr"><is><t>12</t></is></c><c r="${last}${i + 2}" t="inlineStr"><is><t>x</t></is></c></row>`;
  });
  return zipArchive(workbookParts([{ name: "Contacts", xml: sheet }]));
}

/** `rows` identical rows with no phone: a small workbook whose error report would be large. */
export function badRows(rows: number): Promise<Buffer> {
  const sheet = sheetXml(function* () {
    yield inlineRow(["Name", "Phone", "Email"], 1);
    yield* repeat(inlineRow(["Ana Lima", "", "ana@example.com"], 2), rows);
  });
  return zipArchive(workbookParts([{ name: "Contacts", xml: sheet }]));
}

/** Writes bytes to a file (a bench writes its bombs to disk once). */
export async function writeBytes(path: string, bytes: Buffer): Promise<void> {
  const out = createWriteStream(path);
  out.end(bytes);
  await once(out, "finish");
}
