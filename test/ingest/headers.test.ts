import { describe, expect, it } from "vitest";
import { IngestFileError, mapColumns, normalizeHeader } from "../../src/ingest/index.ts";

describe("header mapping", () => {
  it("normalizes case, spaces, punctuation, BOM and width", () => {
    expect(normalizeHeader("\uFEFFFirst  Name")).toBe("firstname");
    expect(normalizeHeader("E-Mail")).toBe("email");
    expect(normalizeHeader("ＰＨＯＮＥ_No.")).toBe("phoneno");
  });

  it("maps synonyms and keeps unknown columns for reporting", () => {
    const map = mapColumns(
      ["Given Name", "Surname", "Mobile", "E-mail", "Job Title", "Favourite colour"],
      "f.csv",
    );
    expect(map.mapped).toEqual({
      first_name: "Given Name",
      last_name: "Surname",
      phone: "Mobile",
      email: "E-mail",
      job_title: "Job Title",
    });
    expect(map.unknown).toEqual(["Favourite colour"]);
  });

  it("uses a full name column only when there are no separate name columns", () => {
    expect(mapColumns(["Name", "Tel"], "f.csv").mapped).toEqual({ full_name: "Name", phone: "Tel" });
    expect(mapColumns(["Name", "First Name", "Tel"], "f.csv").mapped).toEqual({
      first_name: "First Name",
      phone: "Tel",
    });
  });

  it("several phone columns are ranked, not refused: mobile first", () => {
    const map = mapColumns(["Phone", "Mobile", "Home Phone"], "f.csv");
    expect(map.phones.map((p) => [p.header, p.kind])).toEqual([
      ["Mobile", "mobile"],
      ["Phone", "main"],
      ["Home Phone", "home"],
    ]);
    expect(map.mapped).toEqual({ phone: "Mobile" });
  });

  it("an explicit mapping wins over the synonyms", () => {
    const map = mapColumns(["Phone", "Cell"], "f.csv", { phone: "Cell" });
    expect(map.mapped).toEqual({ phone: "Cell" });
    expect(map.unknown).toEqual(["Phone"]);
  });

  it.each([
    [
      ["First Name", "Email"],
      {},
      "no_phone_column",
      /no phone column found \(columns: "First Name", "Email"\)/,
    ],
    [
      ["Phone", "Name"],
      { first_name: "Name", last_name: "Name" },
      "duplicate_mapping",
      /sends column "Name" to both first_name and last_name/,
    ],
    [
      ["Phone"],
      { first_name: "Given" },
      "unknown_mapped_column",
      /column "Given" to first_name, but the file has no such column/,
    ],
  ])("fails the file: %j", (headers, mapping, code, message) => {
    try {
      mapColumns(headers, "in/f.csv", mapping);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(IngestFileError);
      expect((error as IngestFileError).code).toBe(code);
      expect((error as Error).message).toMatch(/^in\/f\.csv: /);
      expect((error as Error).message).toMatch(message);
    }
  });
});
