import { finished } from "node:stream/promises";
import { CsvError, type InfoRecord, parse } from "csv-parse";
import { importFields } from "../../app/shared/import/format";
import type { FieldDef } from "../../app/shared/resources/types";
import { stripControlCharacters } from "../lib/control-characters";
import { HttpError } from "../lib/errors";
import { message } from "../lib/messages";
import type { ServerResource } from "./types";

// Reads an import file: a header row of field names, then one record per line. Anything that
// makes the whole file unusable is a 400 here, before a job exists.

/** One data line: its line number in the file and its cells, in header order. */
export interface ImportLine {
  line: number;
  cells: string[];
}

export interface ImportColumn {
  index: number;
  name: string;
  /** The field the column writes; absent for the id column. */
  field?: FieldDef;
}

export interface ImportFile {
  width: number;
  /** The columns that count: writable fields and id. Columns the server keeps are dropped. */
  columns: ImportColumn[];
  lines: ImportLine[];
}

const bad = (key: string, values?: Record<string, unknown>) => new HttpError(400, message(`transfer:import.${key}`, values));

// The export writes a text cell a spreadsheet would run as a formula with a leading ';
// reading it back drops that mark again.
const NEUTRALISED = /^'[=+\-@\t\r]/;
const cellValue = (text: string) => {
  const cell = stripControlCharacters(text);
  return NEUTRALISED.test(cell) ? cell.slice(1) : cell;
};

const CHUNK = 64 * 1024;
const newlines = (cells: string[]) => cells.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0);

/**
 * The records of the file with the line each starts on. The text is fed in chunks with a turn
 * of the event loop between them, so a large file does not hold up other requests.
 */
async function records(text: string): Promise<ImportLine[]> {
  const out: ImportLine[] = [];
  const parser = parse({ bom: true, trim: true, relax_quotes: true, relax_column_count: true, skip_empty_lines: true, info: true });
  parser.on("data", ({ record, info }: { record: string[]; info: InfoRecord }) => {
    // csv-parse counts the line a record ends on; a quoted value may span several.
    out.push({ line: info.lines - newlines(record), cells: record });
  });
  const done = finished(parser);
  done.catch(() => undefined);
  // Line ends are normalised first so that line numbers count CRLF files right.
  const normalised = text.replace(/\r\n?/g, "\n");
  for (let i = 0; i < normalised.length && !parser.destroyed; i += CHUNK) {
    parser.write(normalised.slice(i, i + CHUNK));
    await new Promise((resolve) => setImmediate(resolve));
  }
  parser.end();
  try {
    await done;
  } catch (error) {
    if (error instanceof CsvError) throw bad("unreadable", { reason: error.message });
    throw error;
  }
  return out;
}

function checkHeader(res: ServerResource, header: string[]): ImportColumn[] {
  if (header.length === 1 && /[;\t|]/.test(header[0]!)) throw bad("notCommaSeparated");
  const repeated = [...new Set(header.filter((name, i) => header.indexOf(name) !== i))];
  if (repeated.length) throw bad("duplicateColumns", { columns: repeated.join(", ") });
  const writable = importFields(res.def);
  // Names the export writes that an import does not set (created_at, counts) are accepted and ignored.
  const kept = new Set([...res.def.fields.map((f) => f.name), ...Object.keys(res.columns)]);
  const unknown = header.filter((name) => name !== "id" && !kept.has(name));
  if (unknown.length) {
    throw bad("unknownColumns", { columns: unknown.join(", "), expected: ["id", ...writable.map((f) => f.name)].join(", ") });
  }
  const missing = writable.filter((f) => f.required && !header.includes(f.name)).map((f) => f.name);
  if (missing.length) throw bad("missingColumns", { columns: missing.join(", ") });
  return header.flatMap((name, index) => {
    if (name === "id") return [{ index, name }];
    const field = writable.find((f) => f.name === name);
    return field ? [{ index, name, field }] : [];
  });
}

/** The header and the non-blank lines of a file, or a 400 saying why the file cannot be imported. */
export async function readImportFile(res: ServerResource, text: string | undefined): Promise<ImportFile> {
  if (text === undefined) throw bad("noFile");
  if (text.replace(/^\uFEFF/, "").trim() === "") throw bad("emptyFile");
  const [head, ...rest] = await records(text);
  const columns = checkHeader(res, head!.cells);
  const lines = rest
    .filter((r) => r.cells.some((cell) => cell !== ""))
    .map((r) => ({ line: r.line, cells: r.cells.map(cellValue) }));
  if (lines.length === 0) throw bad("noRows");
  return { width: head!.cells.length, columns, lines };
}
