import { describe, expect, it } from "vitest";
import { CsvError, parseCsv } from "../../server/domains/accounts/csv.ts";

describe("parseCsv (RFC 4180)", () => {
  it("reads plain and quoted fields, doubled quotes, commas and line breaks inside quotes, CRLF and LF", () => {
    expect(parseCsv('a,b\r\n"c,d","e ""f"""\n"g\nh",\n')).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 2, cells: ["c,d", 'e "f"'] },
      { line: 3, cells: ["g\nh", ""] },
    ]);
  });

  it("drops a byte order mark and blank lines, and numbers rows by the line they start on", () => {
    expect(parseCsv("\uFEFFa,b\n\n\nc,d")).toEqual([
      { line: 1, cells: ["a", "b"] },
      { line: 4, cells: ["c", "d"] },
    ]);
  });

  it("refuses stray quotes and an unclosed quoted field, naming the line", () => {
    expect(() => parseCsv('a,b"c')).toThrow(CsvError);
    expect(() => parseCsv('x\n"a"b,c')).toThrow("text after a closing quote");
    try {
      parseCsv('x\n"open,\nstill open');
    } catch (err) {
      expect(err).toMatchObject({ line: 2, message: "a quoted field is not closed" });
    }
    expect(() => parseCsv('x\n"open')).toThrow(CsvError);
  });
});
