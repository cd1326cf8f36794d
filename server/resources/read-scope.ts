import { type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from "kysely";
import { allows } from "../../app/common/access";
import { type Caller, levelOf } from "../auth/caller";
import { resourceAccess } from "../auth/permissions";
import type { DB } from "../db/schema";
import { HttpError, forbidden, notFound } from "../lib/errors";
import { message } from "../lib/messages";

// Which rows a caller may read at all, whatever the entity: their firm's, less the rows of cases
// an ethical wall keeps them out of, and of notice data only what the page that shows it lets
// their role open. The generic search, read, export and counts apply it in one place
// (repository.ts); every bespoke read of notice data asks here (noticeRows). Route modules and
// the console never query a notice table themselves: tests/unit/notice-reads.test.ts fails on one
// that does (docs/decisions/088).

/** What the scope of one caller depends on, read once per request. */
export interface ReadScope {
  firmId: number;
  /** The caller's timekeeper while the firm's walls hold; null when no wall can keep them out. */
  wallTimekeeperId: string | null;
  /** Whether the caller's role opens the inbox: without it, no firm-wide row about a notice is theirs. */
  opensNotices: boolean;
}

/** Tables whose rows tell about notices: every read of them by a person goes through this module. */
export const NOTICE_TABLES = [
  "inbox_item",
  "envelope",
  "document",
  "dms_record",
  "notification",
  "event_log",
  "case_docket_entry",
  "webhook_delivery",
  "outbound_mail",
  "outbound_mail_notice",
] as const;
export type NoticeTable = (typeof NOTICE_TABLES)[number];

/** SQL over alias `t`, true when no wall keeps the timekeeper from the row. */
type WallRule = (firmId: number, timekeeperId: string) => RawBuilder<unknown>;

/** A row about one case (or none): hidden when a wall keeps the timekeeper out of that case. */
const ofCase =
  (caseId: () => RawBuilder<unknown>): WallRule =>
  (firmId, timekeeperId) =>
    sql`(${caseId()} is null or not ${walledOutSql(caseId(), firmId, timekeeperId)})`;
/** A row about one notice: walled with the notice's case. */
const ofNotice = (column: string): WallRule => ofCase(() => sql`(select wi.case_id from inbox_item wi where wi.id = ${sql.ref(`t.${column}`)})`);

/**
 * How each notice table names the cases it tells about: a wall over the case's matter hides the
 * row. Cases, matters and clients themselves stay visible, as in the console (spec §6: notices,
 * inbox cards and documents are refused). A mail may tell about several notices (a digest, a
 * report): a wall over any one of them hides the whole mail, its attachments with it.
 */
const WALLED_BY_CASE: Record<NoticeTable, WallRule> = {
  inbox_item: ofCase(() => sql.ref("t.case_id")),
  envelope: ofCase(() => sql.ref("t.case_id")),
  document: ofCase(() => sql`(select we.case_id from envelope we where we.id = t.envelope_id)`),
  dms_record: ofNotice("inbox_item_id"),
  notification: ofNotice("inbox_item_id"),
  // An event about a notice belongs to the notice.
  event_log: ofNotice("inbox_item_id"),
  case_docket_entry: ofCase(() => sql.ref("t.case_id")),
  webhook_delivery: ofNotice("inbox_item_id"),
  outbound_mail_notice: ofNotice("inbox_item_id"),
  // Its own notice as well as those it lists: a mail recorded without its list still has its notice.
  outbound_mail: (firmId, timekeeperId) => sql`not exists (
    select 1 from inbox_item wi
    where (wi.id = t.inbox_item_id or wi.id in (select wl.inbox_item_id from outbound_mail_notice wl where wl.outbound_mail_id = t.id))
      and ${walledOutSql(sql.ref("wi.case_id"), firmId, timekeeperId)}
  )`,
};

type Need = readonly [resource: string, level: "read" | "write"];
/**
 * What a role must hold to read a table's rows on a bespoke route: what the page that shows them
 * needs. Webhook deliveries are the webhooks page's (a firm setting); captured mail can hold
 * password-reset links, so it needs full firm access; a DMS record is a document's copy.
 */
const PAGE_OF: Record<NoticeTable, readonly Need[]> = {
  inbox_item: [["inbox_item", "read"]],
  envelope: [["envelope", "read"]],
  document: [["document", "read"]],
  dms_record: [
    ["inbox_item", "read"],
    ["document", "read"],
  ],
  notification: [["inbox_item", "read"]],
  event_log: [["firm", "read"]],
  case_docket_entry: [["case", "read"]],
  webhook_delivery: [
    ["webhook", "read"],
    ["firm", "read"],
  ],
  outbound_mail: [["firm", "write"]],
  outbound_mail_notice: [["firm", "write"]],
};

const isNoticeTable = (table: string): table is NoticeTable => table in WALLED_BY_CASE;

/**
 * Tables a page other than the inbox shows, some of whose rows are about a notice: those rows need
 * the inbox page as well (an event, a delivery or a mail about a notice tells of it; the others,
 * a test delivery, a password-reset mail, stay the firm's).
 */
const ABOUT_A_NOTICE: Partial<Record<NoticeTable, RawBuilder<unknown>>> = {
  event_log: sql`t.inbox_item_id is not null`,
  webhook_delivery: sql`t.inbox_item_id is not null`,
  outbound_mail_notice: sql`1 = 1`,
  outbound_mail: sql`(t.inbox_item_id is not null or exists (select 1 from outbound_mail_notice wl where wl.outbound_mail_id = t.id))`,
};

/** Whether the role opens the inbox page: notice data needs it wherever it is shown. */
const opensInbox = (caller: Pick<Caller, "permissions">) => allows(resourceAccess(caller.permissions, "inbox_item"), "read");

export async function readScopeOf(db: Kysely<DB>, caller: Pick<Caller, "firmId" | "userId" | "wallTimekeeperId" | "permissions">): Promise<ReadScope> {
  const opensNotices = opensInbox(caller);
  // An authenticated caller brings it from the statement that read the user.
  if (caller.wallTimekeeperId !== undefined) return { firmId: caller.firmId, wallTimekeeperId: caller.wallTimekeeperId, opensNotices };
  const row = await db
    .selectFrom("app_user")
    .innerJoin("firm", "firm.id", "app_user.firm_id")
    .select(["app_user.timekeeper_id", "firm.internal_walls_enabled"])
    .where("app_user.id", "=", caller.userId)
    .where("app_user.firm_id", "=", caller.firmId)
    .executeTakeFirst();
  const walled = Boolean(row?.internal_walls_enabled) && Boolean(row?.timekeeper_id);
  return { firmId: caller.firmId, wallTimekeeperId: walled ? row!.timekeeper_id : null, opensNotices };
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

/**
 * The matters the scope's reader is kept out of, by the same walls as walledOutSql, listed once:
 * for counts kept per matter over a year of notices (the dashboard's), which cannot ask case by
 * case. Empty when no wall can keep the reader out.
 */
export async function walledMatterIds(db: Kysely<DB>, scope: ReadScope): Promise<string[]> {
  const timekeeperId = scope.wallTimekeeperId;
  if (!timekeeperId) return [];
  const walls = await db.selectFrom("ethical_wall").select(["id", "type", "matter_id", "client_id"]).where("firm_id", "=", scope.firmId).execute();
  if (walls.length === 0) return [];
  const listed = await db
    .selectFrom("ethical_wall_timekeeper")
    .select("wall_id")
    .where(
      "wall_id",
      "in",
      walls.map((w) => w.id),
    )
    .where("timekeeper_id", "=", timekeeperId)
    .execute();
  const listing = new Set(listed.map((r) => r.wall_id));
  const keepOut = walls.filter((w) => (w.type === "exclusionary" ? listing.has(w.id) : !listing.has(w.id)));
  const matters = new Set(keepOut.flatMap((w) => (w.matter_id ? [w.matter_id] : [])));
  const clients = keepOut.flatMap((w) => (w.client_id ? [w.client_id] : []));
  if (clients.length > 0) {
    const ofClients = await db.selectFrom("matter").select("id").where("firm_id", "=", scope.firmId).where("client_id", "in", clients).execute();
    for (const m of ofClients) matters.add(m.id);
  }
  return [...matters].sort();
}

/** Whether the scope can hide some of the firm's rows of this table (then counts read rows). */
export function scopeNarrows(table: string, scope: ReadScope): boolean {
  return isNoticeTable(table) && Boolean(scope.wallTimekeeperId || (!scope.opensNotices && ABOUT_A_NOTICE[table]));
}

/**
 * The conditions on alias `t` of a table: the firm (for firm-owned tables) and the walls.
 * `drives: false` writes the firm as `+t.firm_id` for SQLite (see repository.ts).
 */
export function rowScopeSql(table: string, firmOwned: boolean, scope: ReadScope, drives = true): RawBuilder<unknown> {
  const conditions: RawBuilder<unknown>[] = [];
  if (firmOwned) conditions.push(drives ? sql`t.firm_id = ${scope.firmId}` : sql`+t.firm_id = ${scope.firmId}`);
  if (isNoticeTable(table) && scope.wallTimekeeperId) conditions.push(WALLED_BY_CASE[table](scope.firmId, scope.wallTimekeeperId));
  const aboutANotice = isNoticeTable(table) && !scope.opensNotices ? ABOUT_A_NOTICE[table] : undefined;
  if (aboutANotice) conditions.push(sql`not (${aboutANotice})`);
  return conditions.length ? sql.join(conditions, sql` and `) : sql`1 = 1`;
}

/** Whether the caller's role opens the page that shows this table's rows. */
export function mayOpen(caller: Caller, table: NoticeTable): boolean {
  return PAGE_OF[table].every(([resource, level]) => allows(levelOf(caller, resource), level));
}

/** The rows of a notice table as `t`, within the scope: the firm's, less what walls keep from its reader. */
export function scopedRows<T extends NoticeTable>(db: Kysely<DB>, scope: ReadScope, table: T): SelectQueryBuilder<DB & { t: DB[T] }, "t", object> {
  // Kysely cannot type an alias over a table named by a type parameter; the cast states what it builds.
  const from = (db as unknown as Kysely<DB & { t: DB[T] }>).selectFrom(`${table} as t` as "t");
  return from.where(sql<boolean>`${rowScopeSql(table, true, scope)}`);
}

/**
 * The one way a person reads notice data: the rows of `table` (alias `t`) the caller may read,
 * after the page check (403 when their role does not open the page that shows them).
 */
export async function noticeRows<T extends NoticeTable>(db: Kysely<DB>, caller: Caller, table: T): Promise<SelectQueryBuilder<DB & { t: DB[T] }, "t", object>> {
  if (!mayOpen(caller, table)) throw forbidden();
  return scopedRows(db, await readScopeOf(db, caller), table);
}

export type Verdict = "absent" | "walled" | "open";

/** Each of `ids` in the scope's firm: absent, walled (the scope keeps its reader from the row) or open. */
export async function rowVerdicts(db: Kysely<DB>, scope: ReadScope, table: NoticeTable, ids: readonly string[]): Promise<Map<string, Verdict>> {
  const verdicts = new Map<string, Verdict>(ids.map((id) => [id, "absent"]));
  if (ids.length === 0) return verdicts;
  const found = await sql<{ id: string; open: unknown }>`select t.id, ${rowScopeSql(table, false, scope)} as open from ${sql.table(table)} as t
    where t.id in (${sql.join([...verdicts.keys()])}) and t.firm_id = ${scope.firmId}`.execute(db);
  for (const row of found.rows) verdicts.set(row.id, row.open ? "open" : "walled");
  return verdicts;
}

/** Whether row `id` of the scope's firm exists but a wall keeps the scope's reader from it. */
export async function isWalledOut(db: Kysely<DB>, scope: ReadScope, table: NoticeTable, id: string): Promise<boolean> {
  return (await rowVerdicts(db, scope, table, [id])).get(id) === "walled";
}

/**
 * Admits the one row a change acts on, as a read of it would be: 404 when the scope's firm has no
 * such row, 403 with the wall's message when a wall keeps the scope's reader out.
 */
export async function admitInScope(db: Kysely<DB>, scope: ReadScope, table: NoticeTable, id: string): Promise<void> {
  const verdict = (await rowVerdicts(db, scope, table, [id])).get(id);
  if (verdict === "absent") throw notFound();
  if (verdict === "walled") throw new HttpError(403, message("errors:walledOut"));
}

/**
 * Sorts the rows a change on many of them names (the inbox's bulk actions): those it may act on,
 * and the others with why not. A walled row is skipped with the wall's message, never acted on.
 */
export async function admitRows(
  db: Kysely<DB>,
  scope: ReadScope,
  table: NoticeTable,
  ids: readonly string[],
  absentReason: string,
): Promise<{ open: string[]; skipped: { id: string; reason: string }[] }> {
  const verdicts = await rowVerdicts(db, scope, table, [...new Set(ids)]);
  const open = [...verdicts].filter(([, v]) => v === "open").map(([id]) => id);
  const skipped = [...verdicts].filter(([, v]) => v !== "open").map(([id, v]) => ({ id, reason: v === "walled" ? message("errors:walledOut") : absentReason }));
  return { open, skipped };
}

/**
 * Admits one row a route opens on its own (the notice card and what opens from it): 403 without
 * the page, 404 when the caller's firm has no such row, and 403 with the wall's message when a
 * wall keeps the caller out (spec §6: the wall refuses). What the route then reads of that
 * notice it reads about an admitted notice.
 */
export async function admitRow(db: Kysely<DB>, caller: Caller, table: NoticeTable, id: string): Promise<void> {
  if (!mayOpen(caller, table)) throw forbidden();
  await admitInScope(db, await readScopeOf(db, caller), table, id);
}

/** The scope of a signed link's recipient: their firm, and the walls while the firm has them on. */
export async function timekeeperScope(db: Kysely<DB>, firmId: number, timekeeperId: string | null): Promise<ReadScope> {
  const firm = await db.selectFrom("firm").select("internal_walls_enabled").where("id", "=", firmId).executeTakeFirst();
  // The link was sent about a notice: its recipient reads notice data.
  return { firmId, wallTimekeeperId: firm?.internal_walls_enabled && timekeeperId ? timekeeperId : null, opensNotices: true };
}
