import { type Kysely, type RawBuilder, sql } from "kysely";
import { COUNTED_TABLES, versionSql } from "./row-counts";

// What a list keeps per version of its table (migration 049), so that its pages skip work:
// - anchors: the sort key of every EVERY-th row, found once per version; a deep page starts after
//   the nearest anchor with a key condition and an offset under EVERY, instead of skipping every
//   row before it;
// - the keys of the pages asked recently: the same page asked again reads its rows by key.
// The page's own statement reads the table's version, in its own snapshot, and the page is made
// again without them whenever that version is not theirs: a page is never built on what was
// found in another state of the table, whichever process wrote.

/** One anchor every this many rows: a deep page skips fewer index entries than this. */
export const ANCHOR_EVERY = 500;
const MAX_LISTS = 100;
const MAX_PAGES = 1_000;
/** Columns the page's statement reads the table's version and the row's key into. */
const VERSION_COLUMN = "__table_version";
const KEY_COLUMN = "__row_key";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** A list whose conditions read only the table's own rows, in an order of the row's own columns ending with its key. */
export interface KeptList {
  table: string;
  firmId: number;
  where: RawBuilder<unknown>;
  order: RawBuilder<unknown>;
  key: RawBuilder<unknown>;
  /** Set when the list is sorted by one column (then the key, the same way): it may keep anchors. */
  sortedBy: {
    column: RawBuilder<unknown>;
    descending: boolean;
    /** Whether rows without a value sort after every value in this order (the database's rule). */
    nullsAfter: boolean;
  } | null;
}

/**
 * The page's statement: the rows with keys `keys` when given, else after `after` (null: from the
 * first row) skipping `offset`; each row reads its key (keyColumn) and, with `version`, the table's version.
 */
export type PageQuery<R> = (page: {
  keys: unknown[] | null;
  after: RawBuilder<unknown> | null;
  offset: number;
  version: RawBuilder<unknown> | null;
}) => Promise<R[]>;

interface Anchors {
  version: string;
  /** keys[i]: the column's value and the key of the row at position (i + 1) * EVERY - 1. */
  keys: [unknown, unknown][];
}

interface Kept {
  anchors: Map<string, Promise<Anchors>>;
  pages: Map<string, { version: string; keys: unknown[] }>;
}

/** One store per database, so that two databases in one process never share what they found. */
const stores = new WeakMap<object, Kept>();

function storeOf(db: AnyDb): Kept {
  let store = stores.get(db);
  if (!store) stores.set(db, (store = { anchors: new Map(), pages: new Map() }));
  return store;
}

/** Gets `key` from a map kept in order of use, most recent last. */
function used<V>(map: Map<string, V>, key: string): V | undefined {
  const value = map.get(key);
  if (value !== undefined) {
    map.delete(key);
    map.set(key, value);
  }
  return value;
}

function keep<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}

function listKey(db: AnyDb, list: KeptList): string {
  const compiled = sql`${list.where} order by ${list.order}`.compile(db);
  return `${list.table}\n${compiled.sql}\n${JSON.stringify(compiled.parameters)}`;
}

/** Every EVERY-th row's sort key, and the table's version, in one statement (one snapshot). */
async function findAnchors(db: AnyDb, list: KeptList, column: RawBuilder<unknown>): Promise<Anchors> {
  const found = await sql<{ version: string; value: unknown; key: unknown }>`
    select s.version, a.value, a.key from (select ${versionSql(list.firmId, list.table)} as version) s
    left join (
      select value, key, n from (
        select ${column} as value, ${list.key} as key, row_number() over (order by ${list.order}) as n
        from ${sql.table(list.table)} as t where ${list.where}
      ) w where n % ${ANCHOR_EVERY} = 0
    ) a on 1 = 1 order by a.n`.execute(db);
  const rows = found.rows;
  return { version: String(rows[0]?.version), keys: rows.filter((r) => r.key !== null && r.key !== undefined).map((r) => [r.value, r.key]) };
}

function anchorsOf(db: AnyDb, list: KeptList, column: RawBuilder<unknown>, key: string): Promise<Anchors> {
  const map = storeOf(db).anchors;
  let anchors = used(map, key);
  if (!anchors) {
    // One search finds them while the others wait for it.
    const finding = findAnchors(db, list, column);
    keep(map, key, finding, MAX_LISTS);
    finding.catch(() => map.get(key) === finding && map.delete(key));
    anchors = finding;
  }
  return anchors;
}

const versionOf = (rows: Record<string, unknown>[]) => (rows.length > 0 ? String(rows[0]![VERSION_COLUMN]) : undefined);

/**
 * The page from the nearest anchor, when the list keeps anchors and they are of the version the
 * page's statement read; undefined when it must be made by OFFSET.
 */
async function fromAnchor<R extends Record<string, unknown>>(
  db: AnyDb,
  list: KeptList,
  key: string,
  offset: number,
  limit: number,
  page: PageQuery<R>,
): Promise<R[] | undefined> {
  const sortedBy = list.sortedBy;
  if (!sortedBy || offset < ANCHOR_EVERY) return undefined;
  const finding = anchorsOf(db, list, sortedBy.column, key);
  const anchors = await finding;
  // The last anchor at or before the row the page starts with, with a value: a row compared with
  // a null matches nothing.
  let i = Math.min(Math.floor(offset / ANCHOR_EVERY), anchors.keys.length) - 1;
  while (i >= 0 && (anchors.keys[i]![0] === null || anchors.keys[i]![0] === undefined)) i--;
  if (i < 0) return undefined;
  const [value, rowKey] = anchors.keys[i]!;
  const after = sql`(${sortedBy.column}, ${list.key}) ${sql.raw(sortedBy.descending ? "<" : ">")} (${value}, ${rowKey})`;
  const rows = await page({ keys: null, after, offset: offset - (i + 1) * ANCHOR_EVERY, version: versionSql(list.firmId, list.table) });
  const current = versionOf(rows) === anchors.version;
  // Anchors of an older version are found again by the next deep page.
  if (rows.length > 0 && !current && storeOf(db).anchors.get(key) === finding) storeOf(db).anchors.delete(key);
  // An empty page may be past the end or of another version; a short one, where rows without a
  // value sort last, stops before them (the key condition leaves them out): both go by OFFSET.
  if (!current || (rows.length < limit && sortedBy.nullsAfter)) return undefined;
  return rows;
}

/**
 * The page of `limit` rows at `offset`, exact: by the keys it had when the table is still at the
 * version they were found in; else from the nearest anchor of the current version; else by OFFSET.
 * With the version its statement read, when it has rows (row-counts.ts: it holds the firm's rows);
 * each row keeps its key (rowKeyOf).
 */
export async function keptPage<R extends Record<string, unknown>>(
  db: AnyDb,
  list: KeptList,
  offset: number,
  limit: number,
  page: PageQuery<R>,
): Promise<{ rows: R[]; version?: string }> {
  if (!COUNTED_TABLES.has(list.table)) return { rows: await page({ keys: null, after: null, offset, version: null }) };
  const key = listKey(db, list);
  const pageKey = `${key}\n${offset}/${limit}`;
  const pages = storeOf(db).pages;
  const version = versionSql(list.firmId, list.table);
  const known = used(pages, pageKey);
  let rows = known ? await page({ keys: known.keys, after: null, offset: 0, version }) : undefined;
  if (known && (rows!.length !== known.keys.length || versionOf(rows!) !== known.version)) {
    pages.delete(pageKey);
    rows = undefined;
  }
  if (!rows) {
    rows = (await fromAnchor(db, list, key, offset, limit, page)) ?? (await page({ keys: null, after: null, offset, version }));
    if (rows.length > 0) keep(pages, pageKey, { version: versionOf(rows)!, keys: rows.map((r) => r[KEY_COLUMN]) }, MAX_PAGES);
  }
  const read = versionOf(rows);
  for (const row of rows) delete row[VERSION_COLUMN];
  return { rows, version: read };
}

/** The select-list entry that reads the table's version into the page's rows. */
export function versionColumn(version: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`${version} as ${sql.ref(VERSION_COLUMN)}`;
}

/** The select-list entry that reads the row's key into the page's rows (every page reads it). */
export function keyColumn(key: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`${key} as ${sql.ref(KEY_COLUMN)}`;
}

/** The row's key a page's row read (keyColumn). */
export const rowKeyOf = (row: Record<string, unknown>): unknown => row[KEY_COLUMN];
