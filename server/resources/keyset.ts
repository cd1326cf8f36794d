import { createHash } from "node:crypto";
import { type RawBuilder, sql } from "kysely";
import type { SearchQuery } from "./search-query";

// Keyset paging (decision 121): the pager's previous and next links carry an opaque cursor, the
// sort key of the row just before (after) the page they open, so that the page is found by a seek
// on the sort index instead of skipping every row before it. A cursor names the page it opens and
// the search it was made for (the user, the conditions, the order, the page size): any other use
// of it is ignored and the page is found by its number, as a bookmark without cursor is.

/** One column of a list's order, the row's key last. */
export interface OrderColumn {
  column: RawBuilder<unknown>;
  descending: boolean;
}

export interface Cursor {
  /** The rows after the cursor's key, or before it (the previous page). */
  direction: "after" | "before";
  /** The sort key: each order column's value, the row's key last. */
  values: unknown[];
}

interface Encoded {
  /** The offset of the page the cursor opens. */
  o: number;
  /** The search it was made for. */
  h: string;
  v: unknown[];
}

export class CursorError extends Error {}

function searchHash(userId: string, q: SearchQuery): string {
  const what = JSON.stringify([userId, q.max, q.sort, q.filters, q.freeText ?? null, q.quick ?? null]);
  return createHash("sha256").update(what).digest("base64url").slice(0, 16);
}

/** The cursor of the page at `offset`, from the sort key of the row next to it. */
export function encodeCursor(userId: string, q: SearchQuery, offset: number, values: unknown[]): string {
  const encoded: Encoded = { o: offset, h: searchHash(userId, q), v: values };
  return Buffer.from(JSON.stringify(encoded)).toString("base64url");
}

const isScalar = (v: unknown) => v === null || typeof v === "string" || typeof v === "number";

/**
 * The cursor sent with a search, when it was made for this page of this search; null when it is
 * for another (a page number edited by hand, a link shared with a colleague: the page is found by
 * its number). Throws CursorError when it is not a cursor at all.
 */
export function decodeCursor(raw: string, direction: Cursor["direction"], userId: string, q: SearchQuery, columns: number): Cursor | null {
  let encoded: Partial<Encoded>;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw new Error("not base64url");
    encoded = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as Partial<Encoded>;
  } catch {
    throw new CursorError("not a cursor");
  }
  if (!encoded || typeof encoded !== "object" || typeof encoded.o !== "number" || typeof encoded.h !== "string" || !Array.isArray(encoded.v)) {
    throw new CursorError("not a cursor");
  }
  if (!encoded.v.every(isScalar)) throw new CursorError("not a cursor");
  if (encoded.o !== q.offset || encoded.h !== searchHash(userId, q) || encoded.v.length !== columns) return null;
  return { direction, values: encoded.v };
}

/**
 * The keys of the `limit` rows next to the cursor, in the list's order read from the cursor's
 * side: a union of seeks, one per order column (the columns before it equal to the cursor's, this
 * one beyond it), each answered by the sort index from its first entry, then the nearest `limit`
 * of them. Rows without a value are placed as the database sorts them: PostgreSQL sorts null
 * above every value, SQLite below.
 */
export function keysetKeys(opts: {
  table: RawBuilder<unknown>;
  where: RawBuilder<unknown>;
  key: RawBuilder<unknown>;
  order: OrderColumn[];
  cursor: Cursor;
  limit: number;
  nullsGreater: boolean;
}): RawBuilder<unknown> {
  const backwards = opts.cursor.direction === "before";
  const order = opts.order.map((c) => ({ column: c.column, descending: c.descending !== backwards }));
  const orderBy = sql.join(order.map((c) => sql`${c.column} ${sql.raw(c.descending ? "desc" : "asc")}`));
  const outerOrder = sql.join(order.map((c, i) => sql`${sql.ref(`u.s${i}`)} ${sql.raw(c.descending ? "desc" : "asc")}`));
  const selected = sql.join([sql`${opts.key} as k`, ...order.map((c, i) => sql`${c.column} as ${sql.ref(`s${i}`)}`)]);
  const branches: RawBuilder<unknown>[] = [];
  order.forEach((c, i) => {
    const same = order.slice(0, i).map((p, j) => {
      const v = opts.cursor.values[j];
      return v === null ? sql`${p.column} is null` : sql`${p.column} = ${v}`;
    });
    const v = opts.cursor.values[i];
    // Whether rows without a value come after every value in this direction.
    const nullsAfter = c.descending ? !opts.nullsGreater : opts.nullsGreater;
    const beyond: RawBuilder<unknown>[] = [];
    if (v === null) {
      if (!nullsAfter) beyond.push(sql`${c.column} is not null`);
    } else {
      beyond.push(sql`${c.column} ${sql.raw(c.descending ? "<" : ">")} ${v}`);
      if (nullsAfter) beyond.push(sql`${c.column} is null`);
    }
    for (const condition of beyond) {
      const where = sql.join([opts.where, ...same, condition], sql` and `);
      branches.push(
        sql`select * from (select ${selected} from ${opts.table} where ${where} order by ${orderBy} limit ${opts.limit}) ${sql.ref(`b${branches.length}`)}`,
      );
    }
  });
  if (branches.length === 0) return sql`select ${opts.key} from ${opts.table} where 1 = 0`;
  return sql`select u.k from (${sql.join(branches, sql` union all `)}) u order by ${outerOrder} limit ${opts.limit}`;
}
