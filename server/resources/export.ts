import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import type { Caller } from "../auth/caller";
import type { ServerContext } from "../context";
import { type SearchResult, search, visibleFields } from "./repository";
import type { SearchQuery } from "./search-query";
import type { ServerResource } from "./types";

// CSV export of every row a search matches, read through the same allow-listed search as the
// table in batches, so filters, field permissions and the firm scope are those of the table.
//
// The file: a UTF-8 byte order mark (spreadsheets otherwise guess the encoding), a header row of
// API field names (the names import reads back, independent of the interface language), then
// one line per row. Lists are joined with ";", booleans are true/false, timestamps are ISO 8601
// in UTC, dates stay YYYY-MM-DD.

export const EXPORT_BATCH = 1000;
const FORMULA_START = /^[=+\-@\t\r]/;

type Row = Record<string, unknown>;

/** A text cell a spreadsheet would run as a formula is prefixed with ' and so stays text. */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function cellOf(res: ServerResource, field: string, value: unknown): string | number {
  if (value === null || value === undefined) return "";
  const type = res.columns[field]?.type;
  if (type === "millis" && typeof value === "number") return new Date(value).toISOString();
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (Array.isArray(value)) return neutraliseFormula(value.map(String).join(";"));
  return neutraliseFormula(String(value));
}

/** The export's columns: id, then the entity's declared fields, then other readable columns. */
export function exportFields(res: ServerResource, caller: Caller): string[] {
  const visible = visibleFields(res, caller);
  const declared = res.def.fields.map((f) => f.name);
  const ordered = ["id", ...declared, ...visible].filter((f) => visible.includes(f));
  return [...new Set(ordered)];
}

export interface CsvExport {
  total: number;
  fields: string[];
  body: Readable;
}

/**
 * Runs the first batch at once, so a refused or invalid query fails before any byte is sent,
 * then streams the rest batch by batch as the reader takes it.
 */
export async function exportCsv(ctx: ServerContext, caller: Caller, res: ServerResource, query: SearchQuery): Promise<CsvExport> {
  const batch = (offset: number): Promise<SearchResult> => search(ctx, caller, res, { ...query, max: EXPORT_BATCH, offset });
  const first = await batch(0);
  const fields = exportFields(res, caller);
  const total = first.total;

  async function* records(): AsyncGenerator<(string | number)[]> {
    let current = first;
    let offset = 0;
    for (;;) {
      for (const row of current.rows) yield fields.map((f) => cellOf(res, f, (row as Row)[f]));
      offset += current.rows.length;
      if (current.rows.length < EXPORT_BATCH) return;
      current = await batch(offset);
    }
  }

  const csv = stringify({ header: true, columns: fields, bom: true });
  const source = Readable.from(records());
  source.on("error", (error) => csv.destroy(error));
  return { total, fields, body: source.pipe(csv) };
}
