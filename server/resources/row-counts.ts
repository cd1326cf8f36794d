import { type Kysely, type RawBuilder, sql } from "kysely";
import { type BoundedCache, boundedCache } from "../../app/common/bounded-cache";

// The rows a firm has in its large tables and a version of each table, kept by the database
// (migration 049), and the counts of searches kept per process against that version: a count is
// answered again only while no process has written to the table since it was made.

/** Tables the database keeps counted (049's list). */
export const COUNTED_TABLES: ReadonlySet<string> = new Set(["court_case", "matter", "client", "timekeeper"]);

export interface TableState {
  rows: number;
  /** Changes whenever a write to the table commits, in any process. */
  version: string;
}

// The table is the migration's, not in the typed schema.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The state of a table's rows of firm_row_count (049), as one text: the greatest version and the
 * number of rows, which name the state, then the firm's rows of the table in it.
 */
const VERSION = sql`coalesce(max(version), 0) || '/' || count(*) || '/' || coalesce(sum(n), 0)`;

/** The firm's rows of the table in a state read by `tableState` or `versionSql`. */
export function rowsInVersion(version: string): number {
  return Number(version.slice(version.lastIndexOf("/") + 1));
}

/**
 * A firm's rows in a counted table and the table's version. On PostgreSQL rows are appended and
 * folded (049): for one greatest version the number of rows only grows, and a fold adds a greater
 * version, so the pair names one state.
 */
export async function tableState(db: AnyDb, firmId: number, table: string): Promise<TableState> {
  const found = await sql<{ version: string }>`
    select ${VERSION} as version from firm_row_count where firm_id = ${firmId} and table_name = ${table}`.execute(db);
  const version = String(found.rows[0]?.version);
  return { rows: rowsInVersion(version), version };
}

/** A table's version as SQL, for a statement to read in its own snapshot. */
export function versionSql(firmId: number, table: string): RawBuilder<unknown> {
  return sql`(select ${VERSION} from firm_row_count where firm_id = ${firmId} and table_name = ${table})`;
}

/** Counts of searches by their SQL, each valid for one version of its table. */
type CountCache = BoundedCache<{ version: string; n: number }>;

/** One cache per database, so that two databases in one process never share a count. */
const caches = new WeakMap<object, CountCache>();

export interface CountedSearch {
  table: string;
  firmId: number;
  /** True when the search keeps every row of the firm's table: its count is the kept one. */
  everyRow: boolean;
  /** The count's conditions, when they read only the table's own rows (then it may be kept). */
  conditions: RawBuilder<unknown> | null;
  count: () => Promise<number>;
}

/**
 * The number of rows a search finds, exact: the kept count for a whole table; a count made
 * earlier by the same conditions while the table has not changed; else counted. The state is read
 * before counting, so a write committed in between leaves a count newer than its version, never older.
 */
export async function countRows(db: AnyDb, search: CountedSearch): Promise<number> {
  if (!COUNTED_TABLES.has(search.table) || (!search.everyRow && !search.conditions)) return search.count();
  const state = await tableState(db, search.firmId, search.table);
  if (search.everyRow) return state.rows;
  const compiled = search.conditions!.compile(db);
  const key = `${search.table}\n${compiled.sql}\n${JSON.stringify(compiled.parameters)}`;
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = boundedCache({ max: 1_000 })));
  const kept = cache.get(key);
  if (kept?.version === state.version) return kept.n;
  const n = await search.count();
  cache.set(key, { version: state.version, n });
  return n;
}
