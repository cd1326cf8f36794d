import { type Kysely, type RawBuilder, sql } from "kysely";
import { COUNTED_TABLES, versionSql } from "./row-counts";

// Deep pages of a long sorted list start from a kept anchor instead of skipping every row before
// them: the sort key of every EVERY-th row of the list is found once per version of the table
// (migration 049), and page 500 starts after the nearest anchor with a key condition and an
// offset under EVERY. The page's statement reads the table's version too, in its own snapshot,
// and is answered with OFFSET alone whenever that version is not the anchors' one: a page is
// never built on anchors of another state of the table, whichever process wrote.

/** One anchor every this many rows: a deep page skips fewer index entries than this. */
export const ANCHOR_EVERY = 500;
const MAX_KEPT = 100;
/** The column the anchored page's statement reads the table's version into. */
const VERSION_COLUMN = "__table_version";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** A list sorted by one column of the table's own rows, ties by the row's key. */
export interface AnchoredList {
  table: string;
  firmId: number;
  /** The list's conditions; they read only the table's own rows (then the version covers them). */
  where: RawBuilder<unknown>;
  column: RawBuilder<unknown>;
  key: RawBuilder<unknown>;
  descending: boolean;
  /** Whether rows without a value sort after every value in this order (the database's rule). */
  nullsAfter: boolean;
  /** The whole order: column, then key, in one direction. */
  order: RawBuilder<unknown>;
}

/** The rows a page's statement gives: after `after` (null: from the first row), skipping `offset`. */
export type PageQuery<R> = (page: { after: RawBuilder<unknown> | null; offset: number; version: RawBuilder<unknown> | null }) => Promise<R[]>;

interface Anchors {
  version: string;
  /** keys[i]: the column's value and the key of the row at position (i + 1) * EVERY - 1. */
  keys: [unknown, unknown][];
}

/** Anchors by list (its conditions and order), one version each. One map per database. */
const kept = new WeakMap<object, Map<string, Promise<Anchors>>>();

function keptFor(db: AnyDb): Map<string, Promise<Anchors>> {
  let map = kept.get(db);
  if (!map) kept.set(db, (map = new Map()));
  return map;
}

function listKey(db: AnyDb, list: AnchoredList): string {
  const compiled = sql`${list.where} order by ${list.order}`.compile(db);
  return `${list.table}\n${compiled.sql}\n${JSON.stringify(compiled.parameters)}`;
}

/** Every EVERY-th row's sort key, and the table's version, in one statement (one snapshot). */
async function findAnchors(db: AnyDb, list: AnchoredList): Promise<Anchors> {
  const found = await sql<{ version: string; value: unknown; key: unknown }>`
    select s.version, a.value, a.key from (select ${versionSql(list.firmId, list.table)} as version) s
    left join (
      select value, key, n from (
        select ${list.column} as value, ${list.key} as key, row_number() over (order by ${list.order}) as n
        from ${sql.table(list.table)} as t where ${list.where}
      ) w where n % ${ANCHOR_EVERY} = 0
    ) a on 1 = 1 order by a.n`.execute(db);
  const rows = found.rows;
  return { version: String(rows[0]?.version), keys: rows.filter((r) => r.key !== null && r.key !== undefined).map((r) => [r.value, r.key]) };
}

function anchorsOf(db: AnyDb, list: AnchoredList, key: string): Promise<Anchors> {
  const map = keptFor(db);
  let anchors = map.get(key);
  if (!anchors) {
    // One search finds them while the others wait for it.
    anchors = findAnchors(db, list);
    map.set(key, anchors);
    anchors.catch(() => map.get(key) === anchors && map.delete(key));
    if (map.size > MAX_KEPT) map.delete(map.keys().next().value!);
  } else {
    // Most recently used last.
    map.delete(key);
    map.set(key, anchors);
  }
  return anchors;
}

/**
 * The page of `limit` rows at `offset`, exact: from the nearest anchor when the list is long and
 * the anchors are of the table's current version, else with OFFSET alone.
 */
export async function anchoredPage<R extends Record<string, unknown>>(
  db: AnyDb,
  list: AnchoredList,
  offset: number,
  limit: number,
  page: PageQuery<R>,
): Promise<R[]> {
  const plain = () => page({ after: null, offset, version: null });
  if (offset < ANCHOR_EVERY || !COUNTED_TABLES.has(list.table)) return plain();
  const key = listKey(db, list);
  const finding = anchorsOf(db, list, key);
  const anchors = await finding;
  // The last anchor at or before the row the page starts with, with a value: a row compared with
  // a null matches nothing.
  let i = Math.min(Math.floor(offset / ANCHOR_EVERY), anchors.keys.length) - 1;
  while (i >= 0 && (anchors.keys[i]![0] === null || anchors.keys[i]![0] === undefined)) i--;
  if (i < 0) return plain();
  const [value, rowKey] = anchors.keys[i]!;
  const after = sql`(${list.column}, ${list.key}) ${sql.raw(list.descending ? "<" : ">")} (${value}, ${rowKey})`;
  const rows = await page({ after, offset: offset - (i + 1) * ANCHOR_EVERY, version: versionSql(list.firmId, list.table) });
  const current = rows.length > 0 && String(rows[0]![VERSION_COLUMN]) === anchors.version;
  // Anchors of an older version are found again by the next deep page.
  if (rows.length > 0 && !current && keptFor(db).get(key) === finding) keptFor(db).delete(key);
  // An empty page may be past the end or of another version; a short one, where rows without a
  // value sort last, stops before them (the key condition leaves them out): both go by OFFSET.
  if (!current || (rows.length < limit && list.nullsAfter)) return plain();
  for (const row of rows) delete row[VERSION_COLUMN];
  return rows;
}

/** The select-list entry that reads the table's version into the page's rows. */
export function versionColumn(version: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`${version} as ${sql.ref(VERSION_COLUMN)}`;
}
