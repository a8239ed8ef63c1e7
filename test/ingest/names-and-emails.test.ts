/**
 * Issue 17, item 12: iCloud contacts converted by vCard-to-CSV tools ("Name: First", "Email: Home",
 * "Phone: iPhone"), e-mails that fall back across columns row by row, and a batch-calling list's
 * lone lowercase `name` column.
 */
import { describe, expect, it } from "vitest";
import { splitFullName } from "../../src/ingest/full-name.ts";
import { ContactFileReader, type RowOutcome, validateFile } from "../../src/ingest/index.ts";
import { tempDir, writeFixture } from "../support/files.ts";

const dir = tempDir("vcw-names-");

async function read(path: string) {
  const reader = await ContactFileReader.open(path, { defaultCountry: "US" });
  const outcomes: RowOutcome[] = [];
  for await (const outcome of reader) outcomes.push(outcome);
  return { info: reader.info, outcomes };
}

const ICLOUD = [
  "Name: First,Name: Last,Name: Middle,Email: Home,Email: Work,Phone: iPhone,Phone: Cell",
  "Ana,Lima,,,ana@work.example.com,+1 415 555 0101,", // 2: the work e-mail only
  "Ben,Okafor,,ben@home.example.com,,,+1 415 555 0102", // 3: the home e-mail only, the cell phone
  ",,,cy@home.example.com,cy at work,+1 415 555 0103,", // 4: no name; a broken work e-mail, a home one
  ",,,,not an address,+1 415 555 0104,", // 5: no name, no valid e-mail
].join("\n");

describe("iCloud contacts through a vCard-to-CSV converter", () => {
  it("reads Section: Field headers and falls back across the e-mail columns row by row", async () => {
    const path = writeFixture(dir, "icloud.csv", ICLOUD);
    const { info, outcomes } = await read(path);
    expect(info.columns.mapped).toMatchObject({
      first_name: "Name: First",
      last_name: "Name: Last",
      email: "Email: Work",
      phone: "Phone: iPhone",
    });
    expect(info.columns.emails.map((e) => e.header)).toEqual(["Email: Work", "Email: Home"]);
    expect(outcomes[0]).toMatchObject({
      kind: "valid",
      contact: { first_name: "Ana", last_name: "Lima", email: "ana@work.example.com" },
    });
    expect(outcomes[1]).toMatchObject({
      kind: "valid",
      phone: "+14155550102",
      contact: { first_name: "Ben", last_name: "Okafor", email: "ben@home.example.com" },
    });
    expect(outcomes[2]).toMatchObject({ kind: "valid", contact: { email: "cy@home.example.com" } });
    expect(outcomes[2]?.kind === "valid" && outcomes[2].warnings).toEqual([
      {
        field: "email",
        value: "cy at work",
        code: "email_fallback",
        message: '"cy at work" is not an e-mail address; the e-mail of "Email: Home" is used',
      },
    ]);
    expect(outcomes[3]).toMatchObject({
      kind: "rejected",
      issues: [{ field: "email", value: "not an address", code: "email_invalid" }],
    });
  });

  it("vcw validate explains how each header was read", async () => {
    const path = writeFixture(dir, "icloud-summary.csv", ICLOUD);
    const summary = await validateFile(path, { defaultCountry: "US" });
    expect(summary.mapping).toEqual(
      expect.arrayContaining([
        { header: "Name: First", field: "first_name", why: 'header names first name (read as "First Name")' },
        { header: "Name: Last", field: "last_name", why: 'header names last name (read as "Last Name")' },
        { header: "Email: Work", field: "email", why: "1st e-mail tried, row by row" },
        { header: "Email: Home", field: "email", why: "2nd e-mail tried, row by row" },
      ]),
    );
    expect(summary.unknownColumns).toEqual(["Name: Middle"]);
  });
});

describe("a batch-calling list", () => {
  it("its lone lowercase name column is the contact's name, split as documented", async () => {
    const path = writeFixture(
      dir,
      "batch.csv",
      'phone_number,name,language\n+14155550111,Ana Maria Lima,en\n+14155550112,Cher,en\n+14155550113,"Lima, Ana",pt\n',
    );
    const { info, outcomes } = await read(path);
    expect(info.columns.mapped).toEqual({ full_name: "name", phone: "phone_number" });
    expect(outcomes.map((o) => o.kind === "valid" && o.contact)).toEqual([
      { first_name: "Ana", last_name: "Maria Lima", phone: "+14155550111" },
      { first_name: "Cher", phone: "+14155550112" },
      { first_name: "Ana", last_name: "Lima", phone: "+14155550113" },
    ]);
  });
});

describe("splitting a full name", () => {
  it.each([
    ["Ana Lima", { first_name: "Ana", last_name: "Lima" }],
    ["  Ana   Maria  Lima ", { first_name: "Ana", last_name: "Maria  Lima" }],
    ["Ludwig van Beethoven", { first_name: "Ludwig", last_name: "van Beethoven" }],
    ["Cher", { first_name: "Cher" }],
    ["Lima, Ana Maria", { first_name: "Ana Maria", last_name: "Lima" }],
    ["Ana Lima, MD", { first_name: "Ana", last_name: "Lima, MD" }],
    ["Ana Lima, Jr.", { first_name: "Ana", last_name: "Lima, Jr." }],
    ["", {}],
  ])("%j", (full, parts) => {
    expect(splitFullName(full)).toEqual(parts);
  });
});
