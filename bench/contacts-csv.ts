import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { createRandom } from "../src/simulator/prng.ts";

const FIRST = ["Ana", "Bob", "Chen", "Dana", "Eli", "Fatima", "Gus", "Hana", "Ivan", "Jo", "Kemal", "Lea"];
const LAST = [
  "Lima",
  "Smith",
  "Wang",
  "Müller",
  "O'Brien",
  "García",
  "Kowalski",
  "Nguyen",
  "Dubois",
  "Rossi",
];
const FORMATS = [
  (n: string) => `(${n.slice(0, 3)}) ${n.slice(3, 6)}-${n.slice(6)}`,
  (n: string) => `+1 ${n.slice(0, 3)}-${n.slice(3, 6)}-${n.slice(6)}`,
  (n: string) => `${n.slice(0, 3)}.${n.slice(3, 6)}.${n.slice(6)}`,
  (n: string) => `+1${n}`,
];

export const CONTACT_HEADERS = ["First Name", "Last Name", "Phone Number", "Email", "Notes"];

/**
 * `rows` contacts the way CRMs export them: US phones in mixed formats, names with accents, notes
 * with commas. Deterministic from `seed`. About 1 row in 200 is bad.
 */
export function* contactRows(rows: number, seed = 1): Generator<string[]> {
  const random = createRandom(seed);
  for (let i = 0; i < rows; i++) {
    // Unique numbers: area codes 201-989 with valid exchanges.
    const area = 201 + (Math.floor(i / 8_000_000) % 700);
    const exchange = 200 + (Math.floor(i / 10_000) % 700);
    const line = String(i % 10_000).padStart(4, "0");
    const national = `${area}${exchange}${line}`;
    const first = FIRST[Math.floor(random() * FIRST.length)]!;
    const last = LAST[Math.floor(random() * LAST.length)]!;
    const bad = random() < 0.005;
    const phone = bad ? "12345" : FORMATS[i % FORMATS.length]!(national);
    const email = `${first}.${last}${i}@example.com`.toLowerCase().replace(/[^a-z0-9.@]/g, "");
    yield [first, last, phone, email, `Lead ${i}, imported from CRM`];
  }
}

/** Writes `rows` contacts as a CSV file (see `contactRows`). */
export async function writeContactsCsv(path: string, rows: number, seed = 1): Promise<number> {
  const out = createWriteStream(path);
  out.write(`${CONTACT_HEADERS.join(",")}\r\n`);
  let bytes = 0;
  for (const [first, last, phone, email, notes] of contactRows(rows, seed)) {
    const text = `${first},"${last}",${phone},${email},"${notes}"\r\n`;
    bytes += text.length;
    if (!out.write(text)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return bytes;
}
