import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import { sql } from "kysely";
import { columnLabel, isReferenceField, referenceIdLabel } from "../../app/common/import/columns";
import { LIST_SEPARATOR } from "../../app/common/import/format";
import type { Caller } from "../auth/caller";
import type { ServerContext } from "../context";
import { message } from "../lib/messages";
import { type ReadScope, readScopeOf, rowScopeSql } from "./read-scope";
import { SERVER_RESOURCES } from "./registry";
import { type SearchResult, requireResource, search, visibleFields } from "./repository";
import type { SearchQuery } from "./search-query";
import type { ServerResource } from "./types";

// CSV export of every row a search matches, read through the same allow-listed search as the
// table in batches, so filters, field permissions and the firm scope are those of the table.
//
// The file: a UTF-8 byte order mark (spreadsheets otherwise guess the encoding), a header row of
// the names the table shows (catalogue labels), then one line per row. A reference field writes
// two columns: the referenced records' titles, and their ids under "<label> (ID)", which is what
// an import reads back. Lists are joined with ";", booleans are true/false, timestamps are ISO
// 8601 in UTC, dates stay YYYY-MM-DD. See docs/decisions/012-csv-export-format.md.

export const EXPORT_BATCH = 1000;
const FORMULA_START = /^[=+\-@\t\r]/;

type Row = Record<string, unknown>;
type Cell = string | number;

/** A text cell a spreadsheet would run as a formula is prefixed with ' and so stays text. */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A map of names to values (document properties) as the "name=value" lines its input takes. */
const propertiesText = (value: object) =>
  Object.entries(value)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join("\n");

function cellOf(res: ServerResource, field: string, value: unknown): Cell {
  if (value === null || value === undefined) return "";
  const type = res.columns[field]?.type;
  if (type === "millis" && typeof value === "number") return new Date(value).toISOString();
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (Array.isArray(value)) return neutraliseFormula(value.map(String).join(LIST_SEPARATOR));
  if (typeof value === "object") return neutraliseFormula(propertiesText(value));
  return neutraliseFormula(String(value));
}

/** The export's fields: id, then the entity's declared fields, then other readable columns. */
export function exportFields(res: ServerResource, caller: Caller): string[] {
  const visible = visibleFields(res, caller);
  const declared = res.def.fields.map((f) => f.name);
  const ordered = ["id", ...declared, ...visible].filter((f) => visible.includes(f));
  return [...new Set(ordered)];
}

/** Titles of referenced records by id, per referenced entity, for one batch of rows. */
type Titles = Map<ServerResource, Map<string, string>>;

interface ExportColumn {
  header: string;
  cell(row: Row, titles: Titles): Cell;
}

const idsOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : value === null || value === undefined ? [] : [String(value)]);

/** The entity a reference field names, when the generic API serves it (so it has titles). */
function referencedResource(res: ServerResource, field: string): ServerResource | undefined {
  const def = res.def.fields.find((f) => f.name === field);
  if (!isReferenceField(def)) return undefined;
  return SERVER_RESOURCES.find((r) => r.def.key === def!.reference);
}

export function exportColumns(res: ServerResource, caller: Caller): ExportColumn[] {
  const t = message;
  return exportFields(res, caller).flatMap((field): ExportColumn[] => {
    const plain = { header: columnLabel(t, res.def, field), cell: (row: Row) => cellOf(res, field, row[field]) };
    if (!isReferenceField(res.def.fields.find((f) => f.name === field))) return [plain];
    const ids = { header: referenceIdLabel(t, res.def, field), cell: plain.cell };
    const target = referencedResource(res, field);
    if (!target) return [ids];
    const title = (row: Row, titles: Titles) => {
      const known = titles.get(target);
      return neutraliseFormula(
        idsOf(row[field])
          .map((id) => known?.get(id) ?? "")
          .join(LIST_SEPARATOR),
      );
    };
    return [{ header: plain.header, cell: title }, ids];
  });
}

/** The titles the caller may read of the records the rows refer to; none where the role may not see them. */
async function referencedTitles(ctx: ServerContext, caller: Caller, res: ServerResource, fields: string[], rows: Row[]): Promise<Titles> {
  const wanted = new Map<ServerResource, Set<string>>();
  for (const field of fields) {
    const target = referencedResource(res, field);
    if (!target || !mayReadTitles(caller, target)) continue;
    const ids = wanted.get(target) ?? new Set<string>();
    for (const row of rows) for (const id of idsOf(row[field])) ids.add(id);
    wanted.set(target, ids);
  }
  const titles: Titles = new Map();
  if (wanted.size === 0) return titles;
  const scope = await readScopeOf(ctx.database.db, caller);
  for (const [target, ids] of wanted) titles.set(target, await titlesOf(ctx, target, scope, [...ids]));
  return titles;
}

function mayReadTitles(caller: Caller, target: ServerResource): boolean {
  try {
    requireResource(target, caller, "read");
  } catch {
    return false;
  }
  return visibleFields(target, caller).includes(target.def.titleField);
}

async function titlesOf(ctx: ServerContext, target: ServerResource, scope: ReadScope, ids: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const spec = target.columns[target.def.titleField];
  const title = spec?.expr ? sql.raw(spec.expr) : sql.ref(`t.${target.def.titleField}`);
  for (let i = 0; i < ids.length; i += EXPORT_BATCH) {
    const chunk = ids.slice(i, i + EXPORT_BATCH);
    const rows = await sql<{ id: string; title: unknown }>`select t.id as id, ${title} as title from ${sql.table(target.table)} as t
      where ${rowScopeSql(target.table, target.firmOwned, scope)} and t.id in (${sql.join(chunk)})`.execute(ctx.database.db);
    for (const row of rows.rows) found.set(String(row.id), row.title === null ? "" : String(row.title));
  }
  return found;
}

export interface CsvExport {
  total: number;
  headers: string[];
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
  const columns = exportColumns(res, caller);
  const total = first.total;

  async function* records(): AsyncGenerator<Cell[]> {
    let current = first;
    let offset = 0;
    for (;;) {
      const titles = await referencedTitles(ctx, caller, res, fields, current.rows as Row[]);
      for (const row of current.rows) yield columns.map((c) => c.cell(row as Row, titles));
      offset += current.rows.length;
      if (current.rows.length < EXPORT_BATCH) return;
      current = await batch(offset);
    }
  }

  const headers = columns.map((c) => c.header);
  const csv = stringify({ header: true, columns: headers, bom: true });
  const source = Readable.from(records());
  source.on("error", (error) => csv.destroy(error));
  return { total, headers, body: source.pipe(csv) };
}
