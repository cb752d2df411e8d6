// A small RFC 4180 reader for the firm's client import: the project has no CSV parser among its
// dependencies, and the import needs only this much (docs/decisions.md, "Client accounts (issue 32)").
// Quoted fields may hold commas, doubled quotes and line breaks; lines end in CRLF or LF; a byte
// order mark at the start (spreadsheets write one) is dropped.

export type CsvRow = { line: number; cells: string[] };

export class CsvError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/** The file's records, each with the line it starts on; blank lines are left out. */
export function parseCsv(text: string): CsvRow[] {
  const rows: CsvRow[] = [];
  const input = text.startsWith("\uFEFF") ? text.slice(1) : text;
  let cells: string[] = [];
  let cell = "";
  let line = 1;
  let start = 1;
  let quoted = false;
  let wasQuoted = false;
  const endCell = () => {
    cells.push(cell);
    cell = "";
    wasQuoted = false;
  };
  const endRow = () => {
    endCell();
    if (cells.length > 1 || cells[0] !== "") rows.push({ line: start, cells });
    cells = [];
  };
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (quoted) {
      if (c === '"' && input[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === "\n") line++;
        cell += c;
      }
    } else if (c === '"') {
      if (cell !== "" || wasQuoted) throw new CsvError(line, "a quote inside an unquoted field");
      quoted = true;
      wasQuoted = true;
    } else if (c === ",") endCell();
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && input[i + 1] === "\n") i++;
      endRow();
      line++;
      start = line;
    } else if (wasQuoted) throw new CsvError(line, "text after a closing quote");
    else cell += c;
  }
  if (quoted) throw new CsvError(start, "a quoted field is not closed");
  endRow();
  return rows;
}
