import fs from "node:fs";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { StringDecoder } from "node:string_decoder";
import { CsvError, type InfoRecord, parse } from "csv-parse";
import { columnLabel, headerTarget, importHeaderNames } from "../../app/common/import/columns";
import { importFields } from "../../app/common/import/format";
import type { FieldDef } from "../../app/common/resources/types";
import { stripControlCharacters } from "../lib/control-characters";
import { HttpError } from "../lib/errors";
import { message } from "../lib/messages";
import type { ServerResource } from "./types";

// Reads an import file: a header row of field names, then one record per line. The file is read
// as a stream from where the upload was kept, never whole into memory: once to check it (anything
// that makes it unusable is a 400 here, before a job exists), then again by the job, a batch at
// a time.

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
  /** Where the uploaded file waits while it is imported. */
  path: string;
  width: number;
  /** The columns that count: writable fields and id. Columns the server keeps are dropped. */
  columns: ImportColumn[];
  /** Non-blank lines after the header. */
  count: number;
  /** Values each asked-for key column holds (a synchronising import's names of records). */
  keys: Record<string, Set<string>>;
}

const bad = (key: string, values?: Record<string, unknown>) => new HttpError(400, message(`transfer:import.${key}`, values));

// The export writes a text cell a spreadsheet would run as a formula with a leading ';
// reading it back drops that mark again.
const NEUTRALISED = /^'[=+\-@\t\r]/;
const cellValue = (text: string) => {
  const cell = stripControlCharacters(text);
  return NEUTRALISED.test(cell) ? cell.slice(1) : cell;
};

const newlines = (cells: string[]) => cells.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0);

/**
 * CRLF and CR line ends as LF, so that csv-parse counts lines right in every file (it counts
 * the CR of a CRLF inside a quoted value as a line of its own). A CR that ends a chunk waits for
 * the next one, which may begin with its LF.
 */
function normaliseLineEnds(): Transform {
  let pendingCr = false;
  const decoder = new StringDecoder("utf8");
  return new Transform({
    decodeStrings: false,
    transform(chunk: Buffer | string, _encoding, callback) {
      let text = (pendingCr ? "\r" : "") + (typeof chunk === "string" ? chunk : decoder.write(chunk));
      pendingCr = text.endsWith("\r");
      if (pendingCr) text = text.slice(0, -1);
      callback(null, text.replace(/\r\n?/g, "\n"));
    },
    flush(callback) {
      callback(null, (pendingCr ? "\n" : "") + decoder.end());
    },
  });
}

/** Records longer than this are refused, so that one endless quoted value cannot fill memory. */
const MAX_RECORD_CHARS = 1024 * 1024;

/** The records of a file, one at a time, with the line each starts on. */
async function* records(path: string): AsyncGenerator<ImportLine> {
  const parser = parse({
    bom: true,
    trim: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    info: true,
    max_record_size: MAX_RECORD_CHARS,
  });
  const source = fs.createReadStream(path);
  const flowing = pipeline(source, normaliseLineEnds(), parser);
  flowing.catch(() => undefined);
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: InfoRecord }>) {
      // csv-parse counts the line a record ends on; a quoted value may span several.
      yield { line: info.lines - newlines(record), cells: record };
    }
    await flowing;
  } catch (error) {
    if (error instanceof CsvError) throw bad("unreadable", { reason: error.message });
    throw error;
  } finally {
    source.destroy();
  }
}

/** Reads the header row: each name is an API field name or a column name the export writes. */
function checkHeader(res: ServerResource, header: string[]): ImportColumn[] {
  if (header.length === 1 && /[;\t|]/.test(header[0]!)) throw bad("notCommaSeparated");
  const names = importHeaderNames(message, res.def, Object.keys(res.columns));
  const targets = header.map((name) => headerTarget(names, name));
  const unknown = header.filter((_, i) => !targets[i]);
  if (unknown.length) {
    throw bad("unknownColumns", { columns: unknown.join(", "), expected: ["id", ...importFields(res.def).map((f) => f.name)].join(", ") });
  }
  // A reference's title column is its value only when the file has no id column for it.
  const hasIds = new Set(targets.flatMap((t) => (t?.kind === "field" ? [t.field.name] : [])));
  const columns = header.flatMap((name, index): ImportColumn[] => {
    const target = targets[index]!;
    if (target.kind === "id") return [{ index, name: "id" }];
    if (target.kind === "field" || (target.kind === "title" && !hasIds.has(target.field.name)))
      return [{ index, name: target.field.name, field: target.field }];
    return [];
  });
  // Two names for one field ("name" and "Name") repeat it as much as the same name twice.
  const seen = new Set<string>();
  const repeated = header.filter((name, index) => {
    const key = columns.find((c) => c.index === index)?.name ?? `header:${name.trim().toLowerCase()}`;
    const again = seen.has(key);
    seen.add(key);
    return again;
  });
  const named = columns.map((c) => c.name);
  if (repeated.length) throw bad("duplicateColumns", { columns: [...new Set(repeated)].join(", ") });
  const missing = importFields(res.def).filter((f) => f.required && !named.includes(f.name));
  if (missing.length) throw bad("missingColumns", { columns: missing.map((f) => columnLabel(message, res.def, f.name)).join(", ") });
  return columns;
}

const isBlank = (cells: string[]) => cells.every((cell) => cell === "");

/**
 * Reads a file through once: its header checked, its non-blank lines counted, and for a
 * synchronising import the keys its lines name. The lines themselves stay in the file; a 400
 * says why a file cannot be imported.
 */
export async function readImportFile(res: ServerResource, path: string, options: { keys?: readonly string[] } = {}): Promise<ImportFile> {
  let header: string[] | undefined;
  let columns: ImportColumn[] = [];
  let count = 0;
  const keys: Record<string, Set<string>> = {};
  const keyColumns: [string, number][] = [];
  for await (const record of records(path)) {
    if (!header) {
      if (isBlank(record.cells)) continue;
      header = record.cells;
      columns = checkHeader(res, header);
      for (const key of options.keys ?? []) {
        const column = columns.find((c) => c.name === key);
        keys[key] = new Set();
        if (column) keyColumns.push([key, column.index]);
      }
      continue;
    }
    if (isBlank(record.cells)) continue;
    count++;
    for (const [key, index] of keyColumns) {
      const value = cellValue(record.cells[index] ?? "");
      if (value) keys[key]!.add(value);
    }
  }
  if (!header) throw bad("emptyFile");
  if (count === 0) throw bad("noRows");
  return { path, width: header.length, columns, count, keys };
}

/** The non-blank lines after the header, in order, read again from the file. */
export async function* importLines(file: ImportFile): AsyncGenerator<ImportLine> {
  let headerSeen = false;
  for await (const record of records(file.path)) {
    if (isBlank(record.cells)) continue;
    if (!headerSeen) {
      headerSeen = true;
      continue;
    }
    yield { line: record.line, cells: record.cells.map(cellValue) };
  }
}
