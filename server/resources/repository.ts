import { type Kysely, type RawBuilder, sql } from "kysely";
import type { AccessLevel } from "../../app/common/access";
import { ACCESS_KEYS, allows } from "../../app/common/access";
import { SECRET_KEPT } from "../../app/common/resources/types";
import type { SecretBox } from "../auth/secret-box";
import { type Caller, fieldLevel, levelOf } from "../auth/caller";
import { HttpError, conflict, forbidden, invalid, notFound } from "../lib/errors";
import type { ServerContext } from "../context";
import type { DB } from "../db/schema";
import { withoutControlCharacters } from "../lib/control-characters";
import { newId } from "../lib/ids";
import { message } from "../lib/messages";
import { type AuditAction, type AuditedChange, auditChange } from "./audit";
import { type ReadScope, readScopeOf, rowScopeSql, scopeNarrows } from "./read-scope";
import { type KeptList, type PageQuery, keptPage, keyColumn, rowKeyOf, versionColumn } from "./kept-pages";
import { type Cursor, CursorError, type OrderColumn, decodeCursor, encodeCursor, keysetKeys } from "./keyset";
import { COUNTED_TABLES, countRows, rowsInVersion } from "./row-counts";
import { QueryError, type SearchQuery } from "./search-query";
import { documentBody, ftsQuery } from "./search-text";
import { containsFolded } from "../lib/text-fold";
import type { ColumnSpec, LinkSpec, ServerResource } from "./types";

// Generic search and CRUD over the registry. Only declared columns are ever named in SQL; values
// are always bound parameters. Every query of firm data carries the caller's firm here, once.

export type Row = Record<string, unknown>;
const RECENT_MS = 7 * 24 * 3600 * 1000;
/** Up to this many free-text matches, SQLite sorts the matches rather than walk the sort index. */
const FEW_MATCHES = 2_000;
/** Reference data every firm shares (ECFX's court list); all other tables belong to a firm. */
const SHARED_TABLES = new Set(["ecfx_jurisdiction"]);

// Tables are named by the registry at run time, so this module works on an untyped Kysely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

function anyDb(ctx: ServerContext): AnyDb {
  return ctx.database.db as unknown as AnyDb;
}

function columnSql(res: ServerResource, field: string): RawBuilder<unknown> {
  const spec = res.columns[field]!;
  return spec.expr ? sql.raw(spec.expr) : sql.ref(`t.${field}`);
}

/** The fields this caller may see: declared columns and links, less the DENY ones. */
export function visibleFields(res: ServerResource, caller: Caller): string[] {
  return [...Object.keys(res.columns), ...Object.keys(res.links ?? {})].filter((f) => fieldLevel(caller, res.def.resource, f) !== "DENY");
}

export function requireResource(res: ServerResource, caller: Caller, needed: "read" | "write"): void {
  const level: AccessLevel = levelOf(caller, res.def.resource);
  if (!allows(level, needed)) throw forbidden();
  // The API follows the console: an entity whose page a role may not open (DMS credentials and
  // other firm settings behind firmAccess) is not served to it either.
  if (levelOf(caller, ACCESS_KEYS[res.def.accessKey]) === "DENY") throw forbidden();
  if (needed === "write" && !res.writable) throw new HttpError(405, message("errors:readOnlyResource"));
}

/**
 * Only the caller's firm, for firm-owned tables, less what an ethical wall keeps from the caller:
 * the one place tenancy and walls are applied (rules in read-scope.ts).
 * `drives: false` writes it `+t.firm_id` for SQLite: the condition holds all the same, but the
 * planner, which has no statistics and takes `firm_id = ?` for selective, no longer walks the
 * whole firm through a (firm_id, ...) index when a few rows are pinned some other way.
 */
function scope(res: ServerResource, rs: ReadScope, drives = true): RawBuilder<unknown> {
  return rowScopeSql(res.table, res.firmOwned, rs, drives);
}

function checkField(res: ServerResource, caller: Caller, field: string, use: "sort" | "filter"): ColumnSpec {
  const spec = res.columns[field];
  const allowed = spec && (use === "sort" ? spec.sortable : spec.filterable) && fieldLevel(caller, res.def.resource, field) !== "DENY";
  if (!allowed) throw invalid({ [field]: [message("errors:notAllowedHere", { field })] }, message("errors:invalidRequest"));
  return spec;
}

function dayStart(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/**
 * The conditions of a search. On SQLite, rows pinned by id let the id index lead both queries;
 * a free-text match leads the count, while the page query keeps walking the sort index, which
 * stops as soon as the page is full however many rows match (measured: docs/benchmarks.md).
 */
/**
 * The free-text index holds every search field; a role denied one of them must not find rows by
 * it, so its searches match only the fields it can see, without the index.
 */
function usesTextIndex(res: ServerResource, caller: Caller): boolean {
  return res.searchable && res.searchFields.every((f) => fieldLevel(caller, res.def.resource, f) !== "DENY");
}

function filterSql(
  res: ServerResource,
  caller: Caller,
  rs: ReadScope,
  q: SearchQuery,
  now: number,
  dialect: "sqlite" | "postgres",
  purpose: "page" | "count" = "page",
): RawBuilder<unknown>[] {
  const byId = q.filters.some((f) => f.field === "id" && !f.range);
  const indexed = usesTextIndex(res, caller);
  const byText = Boolean(q.freeText && indexed && purpose === "count" && ftsQuery(caller.firmId, q.freeText, dialect));
  const where: RawBuilder<unknown>[] = [scope(res, rs, dialect !== "sqlite" || !(byId || byText))];
  for (const f of q.filters) {
    const spec = checkField(res, caller, f.field, "filter");
    const col = columnSql(res, f.field);
    if (f.range) {
      if (spec.type === "millis") where.push(sql`${col} >= ${dayStart(f.range.from)} and ${col} < ${dayStart(f.range.to) + 86_400_000}`);
      else where.push(sql`${col} >= ${f.range.from} and ${col} <= ${f.range.to}`);
    } else if (spec.type === "boolean") {
      where.push(sql`${col} = ${f.values[0] === "true" ? 1 : 0}`);
    } else if (spec.match === "exact") {
      where.push(sql`${col} in (${sql.join(f.values)})`);
    } else {
      where.push(containsFolded(dialect, col, f.values.join(" ")));
    }
  }
  if (res.defaultFilter && !q.filters.some((f) => f.field === res.defaultFilter!.field)) where.push(sql.raw(res.defaultFilter.sql));
  if (q.quick === "recent" && res.columns.created_at) where.push(sql`t.created_at >= ${now - RECENT_MS}`);
  if (q.quick === "notMapped") where.push(res.notMappedSql ? sql.raw(res.notMappedSql) : sql`1 = 0`);
  if (q.freeText && indexed) {
    const match = ftsQuery(caller.firmId, q.freeText, dialect);
    if (match) {
      where.push(
        dialect === "sqlite"
          ? sql`t.rowid in (select rowid from ${sql.table(`${res.table}_fts`)} where ${sql.table(`${res.table}_fts`)} match ${match})`
          : sql`t.search_vector @@ to_tsquery('simple', ${match})`,
      );
    }
  } else if (q.freeText) {
    // Small tables without an index (users), or a role that may not see every indexed field:
    // a plain match on the fields this caller can see, folded as the index folds its words.
    const freeText = q.freeText;
    const candidates = res.searchable ? res.searchFields : (res.likeFields ?? []);
    const fields = candidates.filter((f) => res.columns[f] && fieldLevel(caller, res.def.resource, f) !== "DENY");
    if (fields.length === 0) return [...where, sql`1 = 0`];
    where.push(
      sql`(${sql.join(
        fields.map((f) => containsFolded(dialect, columnSql(res, f), freeText)),
        sql` or `,
      )})`,
    );
  }
  return where;
}

/**
 * A link field's values, in order, as one JSON list read with its row: no statement of its own.
 * A row without any reads an empty list.
 */
function linkSql(link: LinkSpec, dialect: "sqlite" | "postgres"): RawBuilder<unknown> {
  const value = sql.ref(`l.${link.valueColumn}`);
  const values = dialect === "postgres" ? sql`coalesce(json_agg(${value} order by ${value}), '[]'::json)` : sql`json_group_array(${value} order by ${value})`;
  return sql`(select ${values} from ${sql.table(link.table)} as l where ${sql.ref(`l.${link.ownerColumn}`)} = t.id)`;
}

/** The select list of `fields` over alias `t`: declared columns, and link fields as JSON lists. */
function selectList(res: ServerResource, fields: string[], dialect: "sqlite" | "postgres"): RawBuilder<unknown> {
  return sql.join(
    fields.flatMap((f) => {
      const link = res.links?.[f];
      if (link) return [sql`${linkSql(link, dialect)} as ${sql.ref(f)}`];
      return res.columns[f] ? [sql`${columnSql(res, f)} as ${sql.ref(f)}`] : [];
    }),
  );
}

const isSecretField = (res: ServerResource, field: string) => res.def.fields.some((f) => f.name === field && f.secret);

type Convert = (value: unknown) => unknown;
const asStored: Convert = (value) => value;
// PostgreSQL's driver reads JSON itself; SQLite answers its text.
const fromJson: Convert = (value) => (typeof value === "string" ? JSON.parse(value) : value);

/** How a field's stored value becomes the API's: 0/1 to a boolean, JSON text to a list, a count to a number; a secret only says whether it is set. */
function converterOf(res: ServerResource, field: string): Convert {
  const type = res.columns[field]?.type;
  if (isSecretField(res, field)) return (value) => (value ? SECRET_KEPT : null);
  if (res.links?.[field] || type === "json") return fromJson;
  if (type === "boolean") return (value) => Boolean(value);
  if (type === "number") return (value) => (value === null || value === undefined ? null : Number(value));
  return asStored;
}

/** Each resource's converters, worked out once: a page converts thousands of values. */
const converters = new WeakMap<ServerResource, Map<string, Convert>>();

/** The API's form of a stored row: its `fields`, each converted. */
function present(res: ServerResource, row: Row, fields: string[]): Row {
  let convert = converters.get(res);
  if (!convert) converters.set(res, (convert = new Map()));
  const out: Row = {};
  for (const field of fields) {
    if (!(field in row)) continue;
    let to = convert.get(field);
    if (!to) convert.set(field, (to = converterOf(res, field)));
    out[field] = to(row[field]);
  }
  return out;
}

/** A form sends a kept secret back as it was shown: that keeps the stored one. */
function withoutKeptSecrets(res: ServerResource, values: Row): Row {
  return Object.fromEntries(Object.entries(values).filter(([field, value]) => !(value === SECRET_KEPT && isSecretField(res, field))));
}

export interface SearchResult {
  rows: Row[];
  total: number;
  /** Cursors of the previous and the next page, where there is one (keyset.ts). */
  previous?: string;
  next?: string;
}

/** The cursor the search was sent with, when it was made for this page of this search. */
function cursorOf(caller: Caller, q: SearchQuery, columns: number): Cursor | null {
  const [direction, raw] = q.after ? (["after", q.after] as const) : q.before ? (["before", q.before] as const) : [null, null];
  if (!direction) return null;
  try {
    return decodeCursor(raw, direction, caller.userId, q, columns);
  } catch (error) {
    if (error instanceof CursorError) throw invalid({ [direction]: [message("errors:invalidRequest")] }, message("errors:invalidRequest"));
    throw error;
  }
}

/** The previous and next pages' cursors, from the page's first and last rows' sort keys. */
function cursorsOf(caller: Caller, q: SearchQuery, rows: Row[], total: number): Pick<SearchResult, "previous" | "next"> {
  if (rows.length === 0) return {};
  const sortKey = (row: Row) => [...q.sort.map((s) => row[s.field] ?? null), rowKeyOf(row)];
  const out: Pick<SearchResult, "previous" | "next"> = {};
  if (q.offset >= q.max) out.previous = encodeCursor(caller.userId, q, Math.max(0, q.offset - q.max), sortKey(rows[0]!));
  if (q.offset + q.max < total && rows.length === q.max) out.next = encodeCursor(caller.userId, q, q.offset + q.max, sortKey(rows.at(-1)!));
  return out;
}

/**
 * A search's rows and their count. With `rowsUpTo`, the rows are read only when there are at most
 * that many; a larger result is only counted (a list of choices that would not be offered).
 */
export async function search(ctx: ServerContext, caller: Caller, res: ServerResource, q: SearchQuery, rowsUpTo?: number): Promise<SearchResult> {
  requireResource(res, caller, "read");
  const fields = visibleFields(res, caller);
  const dialect = ctx.database.dialect;
  const now = ctx.clock.now();
  const rs = await readScopeOf(ctx.database.db, caller);
  const where = sql.join(filterSql(res, caller, rs, q, now, dialect), sql` and `);
  const countWhere = sql.join(filterSql(res, caller, rs, q, now, dialect, "count"), sql` and `);
  for (const s of q.sort) checkField(res, caller, s.field, "sort");
  // Ties go by the row's key in the direction of the last sort key, so that an index on the sort
  // column yields the whole order by itself (on SQLite every index entry carries the rowid):
  // no sort of the firm's rows, and a deep page skips index entries instead of reading rows.
  const key = dialect === "sqlite" && !res.view ? sql`t.rowid` : sql`t.id`;
  const orderColumns: OrderColumn[] = [
    ...q.sort.map((s) => ({ column: columnSql(res, s.field), descending: s.descending })),
    { column: key, descending: q.sort.at(-1)?.descending ?? false },
  ];
  const order = orderColumns.map((c) => sql`${c.column} ${sql.raw(c.descending ? "desc" : "asc")}`);
  const table = sql`${sql.table(res.table)} as t`;
  // The page's rows by their keys (given, or found by `keysSql`), in the list's order.
  const rowsByKeys = async (keysSql: RawBuilder<unknown>, version: RawBuilder<unknown> | null) =>
    (
      await sql<Row>`select ${selectList(res, ["id", ...fields], dialect)}, ${keyColumn(key)}${version ? sql`, ${versionColumn(version)}` : sql``} from ${table} where ${scope(res, rs, dialect !== "sqlite")} and ${key} in (${keysSql}) order by ${sql.join(order)}`.execute(
        anyDb(ctx),
      )
    ).rows;
  // The page's keys first, then its rows: skipped rows only cost index entries, never a row read.
  const pageQuery =
    (pageWhere: RawBuilder<unknown>): PageQuery<Row> =>
    ({ keys, after, offset, version }) =>
      rowsByKeys(
        keys
          ? sql.join(keys)
          : sql`select ${key} from ${table} where ${pageWhere}${after ? sql` and ${after}` : sql``} order by ${sql.join(order)} limit ${q.max} offset ${offset}`,
        version,
      );
  // On SQLite a search by text keeps to its page number: its matches are a set the statement
  // builds from the free-text index, which each seek of the cursor's union would build again
  // (measured: 53 ms of CPU per deep page against 30, decision 121).
  // (A value that is no cursor is refused all the same.)
  const sent = cursorOf(caller, q, orderColumns.length);
  const cursor = dialect === "sqlite" && q.freeText && usesTextIndex(res, caller) ? null : sent;
  // A list whose conditions and order read the row alone keeps what its pages found per version
  // of the table (kept-pages.ts).
  const kept =
    res.firmOwned && countReadsRowOnly(res, caller, rs, q) && q.sort.every((s) => !res.columns[s.field]?.expr)
      ? (pageWhere: RawBuilder<unknown>): KeptList => ({
          table: res.table,
          firmId: rs.firmId,
          where: pageWhere,
          order: sql.join(order),
          key,
          sortedBy:
            q.sort.length === 1 && !q.freeText
              ? {
                  column: columnSql(res, q.sort[0]!.field),
                  descending: q.sort[0]!.descending,
                  // PostgreSQL sorts nulls as greater than any value, SQLite as smaller.
                  nullsAfter: (dialect === "postgres") !== q.sort[0]!.descending,
                }
              : null,
        })
      : null;
  const pageRows = async (pageWhere: RawBuilder<unknown>): Promise<{ rows: Row[]; version?: string }> =>
    cursor
      ? {
          // From the pager's previous or next link: the page is a seek from the row next to it.
          rows: await rowsByKeys(
            keysetKeys({ table, where: pageWhere, key, order: orderColumns, cursor, limit: q.max, nullsGreater: dialect === "postgres" }),
            null,
          ),
        }
      : kept
        ? keptPage(anyDb(ctx), kept(pageWhere), q.offset, q.max, pageQuery(pageWhere))
        : { rows: await pageQuery(pageWhere)({ keys: null, after: null, offset: q.offset, version: null }) };
  // Every document of the free-text index carries its firm as a token and every match names the
  // caller's firm, so a search by text alone is counted by the index. The firm is still checked
  // on the row: a row's own text may hold another firm's token as a word.
  const match = dialect === "sqlite" && usesTextIndex(res, caller) && q.freeText ? ftsQuery(caller.firmId, q.freeText, dialect) : null;
  const fts = sql.table(`${res.table}_fts`);
  const counted = () =>
    match && q.filters.length === 0 && !q.quick && !res.defaultFilter && !scopeNarrows(res.table, rs)
      ? sql<{
          n: number;
        }>`select count(*) as n from ${fts} inner join ${table} on t.rowid = ${fts}.rowid where ${fts} match ${match} and ${scope(res, rs, false)}`.execute(
          anyDb(ctx),
        )
      : sql<{ n: number }>`select count(*) as n from ${table} where ${countWhere}`.execute(anyDb(ctx));
  const everyRow = res.firmOwned && !scopeNarrows(res.table, rs) && !q.freeText && q.filters.length === 0 && !q.quick && !res.defaultFilter;
  const count = () =>
    countRows(anyDb(ctx), {
      table: res.table,
      firmId: rs.firmId,
      everyRow,
      conditions: res.firmOwned && countReadsRowOnly(res, caller, rs, q) ? countWhere : null,
      count: async () => Number((await counted()).rows[0]?.n ?? 0),
    });
  let rows;
  let total;
  if (match || rowsUpTo !== undefined) {
    // SQLite runs one query at a time anyway: count first, and when few rows match let the text
    // index lead the page as well; sorting those few beats walking the sort index past the
    // firm's rows that do not match.
    total = await count();
    if (rowsUpTo !== undefined && total > rowsUpTo) return { rows: [], total };
    rows = (await pageRows(match && total <= FEW_MATCHES ? countWhere : where)).rows;
  } else if (everyRow && kept && COUNTED_TABLES.has(res.table)) {
    // The page's statement reads the table's state, and with it the firm's rows: the count.
    const page = await pageRows(where);
    rows = page.rows;
    total = page.version === undefined ? await count() : rowsInVersion(page.version);
  } else {
    const [page, found] = await Promise.all([pageRows(where), count()]);
    [rows, total] = [page.rows, found];
  }
  return { rows: rows.map((r) => present(res, r, fields)), total, ...cursorsOf(caller, q, rows, total) };
}

/**
 * Rows of `res` as a list page names them: the id and `titleField` only, under the same conditions
 * as `search` (firm, walls, default filter), and no count. With `ids`, those rows; without, the
 * first `max` by title (a reference filter's choices), refused as `search` refuses that sort.
 */
export async function referenceRows(
  ctx: ServerContext,
  caller: Caller,
  res: ServerResource,
  q: { titleField: string; max: number; ids?: string[] },
): Promise<Row[]> {
  requireResource(res, caller, "read");
  const fields = ["id", ...visibleFields(res, caller).filter((f) => f === q.titleField && f !== "id")];
  const dialect = ctx.database.dialect;
  const rs = await readScopeOf(ctx.database.db, caller);
  const query: SearchQuery = { max: q.max, offset: 0, sort: [], filters: q.ids ? [{ field: "id", values: q.ids }] : [] };
  const where = sql.join(filterSql(res, caller, rs, query, ctx.clock.now(), dialect), sql` and `);
  if (!q.ids) checkField(res, caller, q.titleField, "sort");
  const order = q.ids ? sql`t.id` : sql`${columnSql(res, q.titleField)} asc, t.id asc`;
  const rows =
    await sql<Row>`select ${selectList(res, fields, dialect)} from ${sql.table(res.table)} as t where ${where} order by ${order} limit ${q.max}`.execute(
      anyDb(ctx),
    );
  return rows.rows.map((r) => present(res, r, fields));
}

/**
 * Whether a search's count depends on the table's own rows alone, so that it holds until the
 * table changes: no wall (walls change elsewhere), no column computed from another table, no
 * quick filter (they read other tables or the clock).
 */
function countReadsRowOnly(res: ServerResource, caller: Caller, rs: ReadScope, q: SearchQuery): boolean {
  if (scopeNarrows(res.table, rs) || q.quick) return false;
  const named = [
    ...q.filters.map((f) => f.field),
    ...(q.freeText && !usesTextIndex(res, caller) ? (res.searchable ? res.searchFields : (res.likeFields ?? [])) : []),
  ];
  return named.every((field) => !res.columns[field]?.expr);
}

export async function read(ctx: ServerContext, caller: Caller, res: ServerResource, id: string): Promise<Row> {
  requireResource(res, caller, "read");
  const fields = visibleFields(res, caller);
  const rs = await readScopeOf(ctx.database.db, caller);
  const found =
    await sql<Row>`select ${selectList(res, ["id", ...fields], ctx.database.dialect)} from ${sql`${sql.table(res.table)} as t`} where ${scope(res, rs)} and t.id = ${id}`.execute(
      anyDb(ctx),
    );
  const row = found.rows[0];
  if (!row) throw notFound();
  return present(res, row, fields);
}

function sentFields(values: Row, body: unknown): Row {
  const sent = body && typeof body === "object" ? Object.keys(body) : [];
  return Object.fromEntries(Object.entries(values).filter(([field]) => sent.includes(field)));
}

/** Refuses a write to any field the role may only read (or not see). */
export function checkWritableFields(res: ServerResource, caller: Caller, values: Row): void {
  const refused = Object.keys(values).filter((f) => fieldLevel(caller, res.def.resource, f) !== "FULL");
  if (refused.length) {
    throw new HttpError(403, message("errors:forbidden"), Object.fromEntries(refused.map((f) => [f, [message("errors:fieldReadOnly")]])));
  }
}

async function checkReferences(ctx: ServerContext, caller: Caller, res: ServerResource, values: Row): Promise<void> {
  const errors: Record<string, string[]> = {};
  for (const [field, table] of Object.entries(res.references ?? {})) {
    const value = values[field];
    if (value === undefined || value === null) continue;
    let query = anyDb(ctx).selectFrom(table).select("id").where("id", "=", value);
    if (!SHARED_TABLES.has(table)) query = query.where("firm_id", "=", caller.firmId);
    const found = await query.executeTakeFirst();
    if (!found) errors[field] = [message("errors:unknownReference")];
  }
  for (const [field, link] of Object.entries(res.links ?? {})) {
    const list = values[field];
    if (!Array.isArray(list) || list.length === 0) continue;
    let query = anyDb(ctx).selectFrom(link.target.table).select("id").where("id", "in", list);
    if (link.target.firmOwned) query = query.where("firm_id", "=", caller.firmId);
    const found = new Set((await query.execute()).map((r) => r.id as string));
    const missing = list.filter((v) => !found.has(String(v)));
    if (missing.length) errors[field] = [message(link.unknownMessageKey ?? "errors:unknownReference")];
  }
  if (Object.keys(errors).length) throw invalid(errors);
}

/** Refuses with 409 a row another row of the firm (or of any firm, where the rule says) already has the unique fields of. */
export async function checkUniques(db: Kysely<DB>, firmId: number, res: ServerResource, row: Row, exceptId?: string): Promise<void> {
  for (const unique of res.uniques ?? []) {
    if (unique.fields.some((f) => row[f] === undefined || row[f] === null || row[f] === "")) continue;
    let query = (db as AnyDb).selectFrom(res.table).select("id");
    if (res.firmOwned && !unique.acrossFirms) query = query.where("firm_id", "=", firmId);
    for (const f of unique.fields) query = query.where(f, "=", row[f]);
    if (exceptId) query = query.where("id", "!=", exceptId);
    if (await query.executeTakeFirst()) {
      throw conflict(message(unique.messageKey, { email: row.email, name: row.name }));
    }
  }
}

/**
 * The API's values as columns. A secret is sealed (server/auth/secret-box.ts): it never reaches
 * the database in plain text; an empty one is no secret.
 */
export function toStored(res: ServerResource, values: Row, secretBox: Pick<SecretBox, "seal">): Row {
  const row: Row = {};
  for (const [field, value] of Object.entries(values)) {
    if (res.links?.[field]) continue;
    const spec = res.columns[field];
    if (isSecretField(res, field)) row[field] = typeof value === "string" && value !== "" ? secretBox.seal(value) : null;
    else if (spec?.type === "boolean") row[field] = value ? 1 : 0;
    else if (spec?.type === "json") row[field] = JSON.stringify(value ?? []);
    else row[field] = value === undefined ? null : value;
  }
  return { ...row, ...(res.derive?.(values) ?? {}) };
}

export async function writeLinks(db: AnyDb, res: ServerResource, caller: Caller, id: string, values: Row): Promise<void> {
  for (const [field, link] of Object.entries(res.links ?? {})) {
    const list = values[field];
    if (!Array.isArray(list)) continue;
    const unique = [...new Set(list.map(String))];
    if (link.inverse) {
      await releaseInverse(db, link, caller, id);
      if (unique.length) {
        await db
          .updateTable(link.table)
          .set({ [link.ownerColumn]: id })
          .where("firm_id", "=", caller.firmId)
          .where(link.valueColumn, "in", unique)
          .execute();
      }
      continue;
    }
    await db.deleteFrom(link.table).where(link.ownerColumn, "=", id).execute();
    if (unique.length) {
      await db
        .insertInto(link.table)
        .values(unique.map((v) => ({ [link.ownerColumn]: id, [link.valueColumn]: v, firm_id: caller.firmId })))
        .execute();
    }
  }
}

async function releaseInverse(db: AnyDb, link: LinkSpec, caller: Caller, id: string): Promise<void> {
  await db
    .updateTable(link.table)
    .set({ [link.ownerColumn]: null })
    .where("firm_id", "=", caller.firmId)
    .where(link.ownerColumn, "=", id)
    .execute();
}

/** The entity's rule over several fields, on the row as it will be after the write. */
function applyCrossCheck(res: ServerResource, values: Row, id?: string): void {
  const errors = res.def.crossCheck?.check(values, id);
  if (errors && Object.keys(errors).length) {
    throw invalid(Object.fromEntries(Object.entries(errors).map(([field, key]) => [field, [message(key)]])));
  }
}

export async function reindex(db: AnyDb, ctx: ServerContext, res: ServerResource, caller: Pick<Caller, "firmId">, id: string): Promise<void> {
  if (!res.searchable) return;
  const fields = res.searchFields;
  const row = await db.selectFrom(res.table).select(fields).where("id", "=", id).executeTakeFirst();
  if (!row) return;
  const body = documentBody(
    caller.firmId,
    fields.map((f) => row[f]),
  );
  if (ctx.database.dialect === "sqlite") {
    const fts = sql.table(`${res.table}_fts`);
    await sql`delete from ${fts} where rowid = (select rowid from ${sql.table(res.table)} where id = ${id})`.execute(db);
    await sql`insert into ${fts}(rowid, body) select rowid, ${body} from ${sql.table(res.table)} where id = ${id}`.execute(db);
  } else {
    await sql`update ${sql.table(res.table)} set search_vector = to_tsvector('simple', ${body}) where id = ${id}`.execute(db);
  }
}

/** What the product itself adds when it creates a record (the pipeline creating a case). */
export interface ProductWrite {
  /** Columns only the product sets, never a client: the rule that created a case. */
  stored?: Row;
  /** A record made for a person to complete later may lack required fields (a case without its matter). */
  incomplete?: boolean;
}

export async function create(ctx: ServerContext, caller: Caller, res: ServerResource, input: unknown, product?: ProductWrite): Promise<Row> {
  requireResource(res, caller, "write");
  await res.hooks?.guardWrite?.(ctx, caller);
  const body = withoutControlCharacters(input);
  const values = withoutKeptSecrets(res, (product?.incomplete ? res.def.schema.partial() : res.def.schema).parse(body) as Row);
  // Only what the caller sent: a default the schema fills in is the product's, not a write.
  checkWritableFields(res, caller, sentFields(values, body));
  applyCrossCheck(res, values);
  await checkReferences(ctx, caller, res, values);
  await res.hooks?.validate?.(ctx, caller, values);
  const committed = await res.hooks?.authorizeWrite?.(ctx, caller, { action: "create", values });
  const now = ctx.clock.now();
  let row: Row = { ...toStored(res, values, ctx.secretBox), ...product?.stored, id: newId(), firm_id: caller.firmId, created_at: now, updated_at: now };
  await checkUniques(ctx.database.db, caller.firmId, res, row);
  if (res.hooks?.beforeInsert) row = await res.hooks.beforeInsert(ctx, caller, row);
  await anyDb(ctx)
    .transaction()
    .execute(async (trx) => {
      await res.hooks?.insideWrite?.(trx as unknown as Kysely<DB>, ctx, caller, { action: "create", values });
      await trx.insertInto(res.table).values(row).execute();
      await writeLinks(trx, res, caller, String(row.id), values);
      await reindex(trx, ctx, res, caller, String(row.id));
      if (res.def.audited) await auditChange(trx as unknown as Kysely<DB>, caller, auditedChange(res, "created", String(row.id), null, values), now);
    });
  if (res.hooks?.afterInsert) await res.hooks.afterInsert(ctx, caller, row);
  await committed?.(String(row.id));
  await res.hooks?.afterWrite?.(ctx, caller, String(row.id));
  return read(ctx, caller, res, String(row.id));
}

export async function update(ctx: ServerContext, caller: Caller, res: ServerResource, id: string, body: unknown): Promise<Row> {
  requireResource(res, caller, "write");
  await res.hooks?.guardWrite?.(ctx, caller);
  const stored = await read(ctx, caller, res, id);
  const values = withoutKeptSecrets(res, res.def.schema.partial().parse(withoutControlCharacters(body)) as Row);
  checkWritableFields(res, caller, values);
  applyCrossCheck(res, { ...stored, ...values }, id);
  await checkReferences(ctx, caller, res, values);
  await res.hooks?.validate?.(ctx, caller, values);
  const committed = await res.hooks?.authorizeWrite?.(ctx, caller, { action: "update", id, values });
  const row: Row = { ...toStored(res, values, ctx.secretBox), updated_at: ctx.clock.now() };
  await checkUniques(ctx.database.db, caller.firmId, res, row, id);
  await anyDb(ctx)
    .transaction()
    .execute(async (trx) => {
      await res.hooks?.insideWrite?.(trx as unknown as Kysely<DB>, ctx, caller, { action: "update", id, values });
      await trx.updateTable(res.table).set(row).where("id", "=", id).where("firm_id", "=", caller.firmId).execute();
      await writeLinks(trx, res, caller, id, values);
      await reindex(trx, ctx, res, caller, id);
      if (res.def.audited) await auditChange(trx as unknown as Kysely<DB>, caller, auditedChange(res, "updated", id, stored, values), ctx.clock.now());
    });
  await committed?.(id);
  await res.hooks?.afterUpdate?.(ctx, caller, stored, values);
  await res.hooks?.afterWrite?.(ctx, caller, id);
  return read(ctx, caller, res, id);
}

export async function remove(ctx: ServerContext, caller: Caller, res: ServerResource, id: string): Promise<void> {
  requireResource(res, caller, "write");
  await res.hooks?.guardWrite?.(ctx, caller);
  const stored = await read(ctx, caller, res, id);
  const committed = await res.hooks?.authorizeWrite?.(ctx, caller, { action: "delete", id, values: {} });
  for (const dep of res.dependents ?? []) {
    const used = await anyDb(ctx).selectFrom(dep.table).select(dep.column).where(dep.column, "=", id).limit(1).executeTakeFirst();
    if (used) throw conflict(message(dep.messageKey));
  }
  await anyDb(ctx)
    .transaction()
    .execute(async (trx) => {
      await res.hooks?.insideWrite?.(trx as unknown as Kysely<DB>, ctx, caller, { action: "delete", id, values: {} });
      if (res.searchable && ctx.database.dialect === "sqlite") {
        const fts = sql.table(`${res.table}_fts`);
        await sql`delete from ${fts} where rowid = (select rowid from ${sql.table(res.table)} where id = ${id})`.execute(trx);
      }
      for (const link of Object.values(res.links ?? {})) {
        if (link.inverse) await releaseInverse(trx, link, caller, id);
        else await trx.deleteFrom(link.table).where(link.ownerColumn, "=", id).execute();
      }
      await trx.deleteFrom(res.table).where("id", "=", id).where("firm_id", "=", caller.firmId).execute();
      if (res.def.audited) await auditChange(trx as unknown as Kysely<DB>, caller, auditedChange(res, "deleted", id, stored, null), ctx.clock.now());
    });
  await committed?.(id);
  await res.hooks?.afterWrite?.(ctx, caller, id);
}

/** An audited change of a generic entity, named by its singular in the catalogue. */
function auditedChange(res: ServerResource, action: AuditAction, id: string, before: Row | null, after: Row | null): AuditedChange {
  return { def: res.def, entity: message(`resources:${res.def.key}.singular`).toLowerCase(), action, id, before, after };
}

export { QueryError };
