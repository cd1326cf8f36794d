import { type Kysely, type RawBuilder, sql } from "kysely";
import { INBOX_STATUSES } from "../../app/common/resources/inbox";
import type { Database } from "../db/database";
import type { DB } from "../db/schema";
import type { Count, DocumentCounts, Ranked } from "../../app/common/dashboard-answer";
import { type NoticeRow, type RowFilter, exactDocuments, exactKeysQuery, exactNotices } from "./exact-counts";
import { keptDocuments, keptKeysQuery, keptNoticesByHour, keptNoticesByMonth } from "./kept-counts";
import { type Range, localHourParts, monthStart, monthsBetween, offsetSegments } from "./period-range";
import { type SignedBlock, type SignedRange, type SignedTiling, ladderOf, tileNearest } from "./tiling";

// The dashboard's counts, read from the counts the triggers keep per UTC bucket (migration 017):
// a period is cut into pieces that each lie in one local month (for the months and states) or
// in one stretch of the zone's offset (for the local hours), each piece into buckets. What the
// buckets cannot answer is counted from the rows: the minutes at a piece's ends that fall inside
// an hour, and, for a caller behind ethical walls, the walled matters' notices, taken off.

/** Whose rows are counted: the firm's, less the matters an ethical wall keeps the caller out of. */
export interface CountScope {
  firmId: number;
  walledMatterIds: string[];
}

export interface NotificationCounts {
  total: number;
  succeeded: number;
  byState: Count[];
  byHour: Count[];
  byMonth: Count[];
}

export type TopKind = "client" | "matter" | "timekeeper";
export const TOP_SIZE = 10;

const num = (v: unknown) => Number(v ?? 0);
const QUARTER = 900_000;
const DAY = 86_400_000;
const QUARTERS_A_DAY = 96;

/** The first notice's instant, where a period reaches back to the beginning. */
export async function firstNoticeAt(db: Kysely<DB>, firmId: number): Promise<number | null> {
  const row = await sql<{ first: unknown }>`select min(created_at) as first from inbox_item where firm_id = ${firmId}`.execute(db);
  const first = row.rows[0]?.first;
  return first === null || first === undefined ? null : Number(first);
}

interface Piece {
  from: number;
  to: number;
}

/** Pieces cut into buckets, with their labels, and the parts left to count from the rows. */
function tilePieces<P extends Piece>(
  pieces: P[],
  tiling: (piece: P, i: number) => SignedTiling,
): { blocks: (SignedBlock & { piece: P })[]; rest: SignedRange[] } {
  const blocks: (SignedBlock & { piece: P })[] = [];
  const rest: SignedRange[] = [];
  pieces.forEach((piece, i) => {
    const t = tiling(piece, i);
    blocks.push(...t.blocks.map((b) => ({ ...b, piece })));
    rest.push(...t.rest);
  });
  return { blocks, rest };
}

/** The local months of [from, to), each as a piece labelled "YYYY-MM". */
function monthPieces(from: number, to: number, zone: string): (Piece & { label: string })[] {
  const months = monthsBetween(from, to, zone);
  return months.map((month, i) => ({
    from: Math.max(from, monthStart(month, zone)),
    to: i + 1 < months.length ? monthStart(months[i + 1]!, zone) : to,
    label: month,
  }));
}

const inAndOff = (rest: SignedRange[]) => ({ in: rest.filter((r) => r.sign > 0), off: rest.filter((r) => r.sign < 0) });

class NoticeTally {
  readonly state = new Map<string, number>(INBOX_STATUSES.map((s) => [s, 0]));
  readonly hour = Array.from({ length: 24 }, () => 0);
  readonly month: Map<string, number>;

  constructor(months: string[]) {
    this.month = new Map(months.map((m) => [m, 0]));
  }

  addStateAndMonth(status: string, month: string, n: number): void {
    this.state.set(status, (this.state.get(status) ?? 0) + n);
    this.month.set(month, (this.month.get(month) ?? 0) + n);
  }

  addHour(hour: number, n: number): void {
    this.hour[hour]! += n;
  }

  addRows(rows: NoticeRow[], sign: number, parts: { stateAndMonth: boolean; hour: boolean }): void {
    for (const row of rows) {
      const { month, hour } = localHourParts(row.localHour);
      if (parts.stateAndMonth) this.addStateAndMonth(row.status, month, sign * row.n);
      if (parts.hour) this.addHour(hour, sign * row.n);
    }
  }

  counts(): NotificationCounts {
    const byState = [...this.state].map(([key, count]) => ({ key, count }));
    return {
      total: byState.reduce((sum, s) => sum + s.count, 0),
      succeeded: this.state.get("Succeeded") ?? 0,
      byState,
      byHour: this.hour.map((count, hour) => ({ key: String(hour).padStart(2, "0"), count })),
      byMonth: [...this.month].sort(([a], [b]) => a.localeCompare(b)).map(([key, count]) => ({ key, count })),
    };
  }
}

export async function notificationCounts(database: Database, scope: CountScope, range: Range, zone: string): Promise<NotificationCounts> {
  const db = database.db;
  const first = range.from ?? (await firstNoticeAt(db, scope.firmId));
  const from = first ?? range.to;
  const period = { from, to: range.to };
  const tally = new NoticeTally(first === null ? [] : monthsBetween(from, range.to, zone));
  const ladder = await ladderOf(db);
  const segments = offsetSegments(from, range.to, zone);

  // Buckets are labelled with their month apart from the query, so each month's ends may move to a
  // UTC midnight; rows are labelled by their own time, so none is taken off.
  const months = tilePieces(monthPieces(from, range.to, zone), (piece) => tileNearest(piece, ladder, DAY, { rowsOff: false }));
  // Local hours regroup quarter hours: a stretch whose offset is not whole quarter hours is counted from the rows.
  const stretches = segments.map((s, i) => ({ from: s.start, to: segments[i + 1]?.start ?? range.to, offset: s.offset }));
  const regrouped = stretches.filter((s) => s.offset % QUARTER === 0);
  const shifts = regrouped.map((s) => ({ ...s, label: (((s.offset / QUARTER) % QUARTERS_A_DAY) + QUARTERS_A_DAY) % QUARTERS_A_DAY }));
  // Each bucket gets one stretch's label in the query: only the period's own ends may move.
  const hours = tilePieces(shifts, (piece, i) =>
    tileNearest(piece, ladder, DAY, { start: i === 0 && piece.from === from, end: i === shifts.length - 1 && piece.to === range.to }),
  );
  hours.rest.push(...stretches.filter((s) => s.offset % QUARTER !== 0).map((s) => ({ from: s.from, to: s.to, sign: 1 as const })));

  const rows = (ranges: Range[], onlyMatters: string[] | null) => exactNotices(db, { firmId: scope.firmId, ranges, onlyMatters }, segments);
  const walled = scope.walledMatterIds.length > 0 ? scope.walledMatterIds : null;
  const monthRest = inAndOff(months.rest);
  const hourRest = inAndOff(hours.rest);
  const [byMonth, byHour, monthIn, monthOff, hourIn, hourOff, walledRows] = await Promise.all([
    keptNoticesByMonth(
      database,
      scope.firmId,
      months.blocks.map((b) => ({ ...b, month: b.piece.label })),
    ),
    keptNoticesByHour(database, scope.firmId, hours.blocks, shifts),
    rows(monthRest.in, null),
    rows(monthRest.off, null),
    rows(hourRest.in, null),
    rows(hourRest.off, null),
    walled ? rows([period], walled) : [],
  ]);
  for (const r of byMonth) tally.addStateAndMonth(r.status, r.month, r.n);
  for (const r of byHour) tally.addHour(r.hour, r.n);
  tally.addRows(monthIn, 1, { stateAndMonth: true, hour: false });
  tally.addRows(monthOff, -1, { stateAndMonth: true, hour: false });
  tally.addRows(hourIn, 1, { stateAndMonth: false, hour: true });
  tally.addRows(hourOff, -1, { stateAndMonth: false, hour: true });
  tally.addRows(walledRows, -1, { stateAndMonth: true, hour: true });
  return tally.counts();
}

export async function documentCounts(database: Database, scope: CountScope, range: Range): Promise<DocumentCounts> {
  const db = database.db;
  const period = { from: range.from ?? 0, to: range.to };
  const { blocks, rest } = tileNearest(period, await ladderOf(db), DAY);
  const edges = inAndOff(rest);
  const filter = (ranges: Range[], onlyMatters: string[] | null): RowFilter => ({ firmId: scope.firmId, ranges, onlyMatters });
  const [kept, edgesIn, edgesOff, walled] = await Promise.all([
    keptDocuments(database, scope.firmId, blocks),
    exactDocuments(db, filter(edges.in, null)),
    exactDocuments(db, filter(edges.off, null)),
    scope.walledMatterIds.length > 0 ? exactDocuments(db, filter([period], scope.walledMatterIds)) : null,
  ]);
  const total = (key: keyof DocumentCounts) => kept[key] + edgesIn[key] - edgesOff[key] - (walled?.[key] ?? 0);
  return { received: total("received"), fetched: total("fetched"), stored: total("stored"), failed: total("failed"), sealed: total("sealed") };
}

/**
 * Each kind's top ten from `per_key` (notices per matter and per timekeeper), leaving out walled
 * matters: the listed matters are looked up once, and clients add up their matters before their
 * names are looked up.
 */
function topQueries(): Record<TopKind, RawBuilder<unknown>> {
  return {
    matter: sql`select 'matter' as kind, x.id as id, x.name as name, x.n as n from listed_matter x order by n desc, x.name limit ${sql.lit(TOP_SIZE)}`,
    client: sql`select 'client' as kind, cl.id as id, cl.name as name, c.n as n
      from (select x.client_id as id, sum(x.n) as n from listed_matter x where x.client_id is not null group by x.client_id) as c
      inner join client cl on cl.id = c.id
      order by n desc, cl.name limit ${sql.lit(TOP_SIZE)}`,
    timekeeper: sql`select 'timekeeper' as kind, t.id as id, t.full_name as name, x.n as n
      from per_key x inner join timekeeper t on t.id = x.key_id
      where x.kind = 'timekeeper' and x.n > 0
      order by n desc, t.full_name limit ${sql.lit(TOP_SIZE)}`,
  };
}

/**
 * The top ten of each kind asked for, by notices in the period: notices per matter and per
 * timekeeper summed over the period's buckets (plus the minutes at its ends counted from the
 * rows), then joined to names; clients add up their matters. A walled matter is left out with
 * its notices, and a timekeeper's notices on walled matters are taken off.
 */
export async function topCounts(database: Database, scope: CountScope, range: Range, kinds: TopKind[]): Promise<Record<TopKind, Ranked[]>> {
  const db = database.db;
  const out: Record<TopKind, Ranked[]> = { client: [], matter: [], timekeeper: [] };
  if (kinds.length === 0) return out;
  const period = { from: range.from ?? 0, to: range.to };
  const fromADay = (await ladderOf(db)).filter((s) => s.size >= DAY);
  const { blocks, rest } = tileNearest(period, fromADay, DAY);
  const edges = inAndOff(rest);
  const walled = scope.walledMatterIds;
  const parts = [await keptKeysQuery(database, scope.firmId, blocks)];
  if (edges.in.length > 0) parts.push(exactKeysQuery({ firmId: scope.firmId, ranges: edges.in, onlyMatters: null }));
  if (edges.off.length > 0) {
    const off = exactKeysQuery({ firmId: scope.firmId, ranges: edges.off, onlyMatters: null });
    parts.push(sql`select o.kind as kind, o.key_id as key_id, -o.n as n from (${off}) as o`);
  }
  if (walled.length > 0) {
    const onWalled = exactKeysQuery({ firmId: scope.firmId, ranges: [period], onlyMatters: walled });
    parts.push(sql`select w.kind as kind, w.key_id as key_id, -w.n as n from (${onWalled}) as w where w.kind = 'timekeeper'`);
  }
  const walledMatters = walled.length > 0 ? sql`m.id not in (${sql.join(walled)})` : sql`1 = 1`;
  const queries = topQueries();
  const tops = kinds.map((k) => sql`select * from (${queries[k]}) as top_${sql.raw(k)}`);
  const rows = await sql<{ kind: TopKind; id: string; name: string; n: unknown }>`
    with per_key as materialized (
      select p.kind as kind, p.key_id as key_id, sum(p.n) as n from (${sql.join(parts, sql` union all `)}) as p
      group by p.kind, p.key_id
    ), listed_matter as materialized (
      select m.id as id, m.name as name, m.client_id as client_id, x.n as n
      from per_key x inner join matter m on m.id = x.key_id
      where x.kind = 'matter' and x.n > 0 and ${walledMatters}
    )
    ${sql.join(tops, sql` union all `)}`.execute(db);
  for (const row of rows.rows) out[row.kind].push({ id: row.id, name: row.name, count: num(row.n) });
  for (const list of Object.values(out)) list.sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  return out;
}
