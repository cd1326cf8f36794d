import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Caller } from "../auth/caller";
import type { DB } from "../db/schema";

// Which rows a caller may read at all, whatever the entity: their firm's, less the rows of cases
// an ethical wall keeps them out of. The generic search, read, export and counts apply it in one
// place (repository.ts); the bespoke read paths (previews, DMS lists) ask the same questions here.

/** What the scope of one caller depends on, read once per request. */
export interface ReadScope {
  firmId: number;
  /** The caller's timekeeper while the firm's walls hold; null when no wall can keep them out. */
  wallTimekeeperId: string | null;
}

/**
 * Entities that belong to a case, and the SQL (over alias `t`) naming it: a wall over the case's matter hides
 * them. Cases, matters and clients themselves stay visible, as in the console (spec §6: notices,
 * inbox cards and documents are refused).
 */
const WALLED_BY_CASE: Record<string, () => RawBuilder<unknown>> = {
  inbox_item: () => sql.ref("t.case_id"),
  envelope: () => sql.ref("t.case_id"),
  // An event about a notice belongs to the notice: walled with the notice's case.
  event_log: () => sql`(select wi.case_id from inbox_item wi where wi.id = t.inbox_item_id)`,
};

export async function readScopeOf(db: Kysely<DB>, caller: Pick<Caller, "firmId" | "userId" | "wallTimekeeperId">): Promise<ReadScope> {
  // An authenticated caller brings it from the statement that read the user.
  if (caller.wallTimekeeperId !== undefined) return { firmId: caller.firmId, wallTimekeeperId: caller.wallTimekeeperId };
  const row = await db
    .selectFrom("app_user")
    .innerJoin("firm", "firm.id", "app_user.firm_id")
    .select(["app_user.timekeeper_id", "firm.internal_walls_enabled"])
    .where("app_user.id", "=", caller.userId)
    .where("app_user.firm_id", "=", caller.firmId)
    .executeTakeFirst();
  const walled = Boolean(row?.internal_walls_enabled) && Boolean(row?.timekeeper_id);
  return { firmId: caller.firmId, wallTimekeeperId: walled ? row!.timekeeper_id : null };
}

/**
 * True (as SQL) when the case `caseId` names lies behind a wall that keeps `timekeeperId` out:
 * an exclusionary wall listing them, or an inclusionary wall not listing them, on the case's
 * matter or on the matter's client.
 */
export function walledOutSql(caseId: RawBuilder<unknown>, firmId: number, timekeeperId: string): RawBuilder<unknown> {
  return sql`exists (
    select 1 from court_case wc
    inner join matter wm on wm.id = wc.matter_id
    inner join ethical_wall w on w.firm_id = ${firmId} and (w.matter_id = wm.id or w.client_id = wm.client_id)
    where wc.id = ${caseId} and wc.firm_id = ${firmId} and (
      (w.type = 'exclusionary' and exists (select 1 from ethical_wall_timekeeper x where x.wall_id = w.id and x.timekeeper_id = ${timekeeperId}))
      or (w.type = 'inclusionary' and not exists (select 1 from ethical_wall_timekeeper x where x.wall_id = w.id and x.timekeeper_id = ${timekeeperId}))
    )
  )`;
}

/** Whether a wall can hide some rows of this table from this caller (then counts read rows). */
export function wallApplies(table: string, scope: ReadScope): boolean {
  return Boolean(scope.wallTimekeeperId && WALLED_BY_CASE[table]);
}

/**
 * The conditions on alias `t` of a table: the firm (for firm-owned tables) and the walls.
 * `drives: false` writes the firm as `+t.firm_id` for SQLite (see repository.ts).
 */
export function rowScopeSql(table: string, firmOwned: boolean, scope: ReadScope, drives = true): RawBuilder<unknown> {
  const conditions: RawBuilder<unknown>[] = [];
  if (firmOwned) conditions.push(drives ? sql`t.firm_id = ${scope.firmId}` : sql`+t.firm_id = ${scope.firmId}`);
  const caseOf = WALLED_BY_CASE[table];
  if (caseOf && scope.wallTimekeeperId) {
    const caseId = caseOf();
    conditions.push(sql`(${caseId} is null or not ${walledOutSql(caseId, scope.firmId, scope.wallTimekeeperId)})`);
  }
  return conditions.length ? sql.join(conditions, sql` and `) : sql`1 = 1`;
}

/** Whether the caller may read one row of a table by id: the generic read's scope, for bespoke routes. */
export async function mayReadRow(db: Kysely<DB>, scope: ReadScope, table: "inbox_item" | "envelope", id: string): Promise<boolean> {
  const found = await sql<{ id: string }>`select t.id from ${sql.table(table)} as t where t.id = ${id} and ${rowScopeSql(table, true, scope)}`.execute(db);
  return found.rows.length > 0;
}
