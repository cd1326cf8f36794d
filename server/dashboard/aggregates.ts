import { type Kysely, type RawBuilder, sql } from "kysely";
import { INBOX_STATUSES } from "../../app/common/resources/inbox";
import type { DB } from "../db/schema";
import { type OffsetSegment, type Range, localHourParts, monthsBetween, offsetSegments } from "./period-range";
import type { Count, DocumentCounts, Ranked } from "../../app/common/dashboard-answer";

// The dashboard's counts, each one SQL aggregate over the firm's rows in the period (indexes in
// migration 016). Hours and months are the firm's local ones: the instant plus the zone's offset
// at that instant, the offset written into the query as one CASE branch per daylight-saving change.

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

function inPeriod(column: RawBuilder<unknown>, range: Range): RawBuilder<unknown> {
  return range.from === null ? sql`${column} < ${range.to}` : sql`${column} >= ${range.from} and ${column} < ${range.to}`;
}

/** A notice on a case of a walled matter is not counted; one on no case always is. */
function outsideWalls(caseColumn: RawBuilder<unknown>, scope: CountScope): RawBuilder<unknown> {
  if (scope.walledMatterIds.length === 0) return sql`1 = 1`;
  return sql`(${caseColumn} is null or ${caseColumn} not in (
    select wc.id from court_case wc where wc.firm_id = ${scope.firmId} and wc.matter_id in (${sql.join(scope.walledMatterIds)})
  ))`;
}

/** The local time of `column` (UTC milliseconds) as milliseconds; offsets are our own numbers, written as literals. */
function localMillis(column: RawBuilder<unknown>, segments: OffsetSegment[]): RawBuilder<unknown> {
  if (segments.length === 1) return sql`(${column} + ${sql.lit(segments[0]!.offset)})`;
  const branches = segments.slice(1).map((s, i) => sql`when ${column} < ${sql.lit(s.start)} then ${sql.lit(segments[i]!.offset)}`);
  return sql`(${column} + case ${sql.join(branches, sql` `)} else ${sql.lit(segments[segments.length - 1]!.offset)} end)`;
}

/** The first notice's instant, where a period reaches back to the beginning. */
export async function firstNoticeAt(db: Kysely<DB>, firmId: number): Promise<number | null> {
  const row = await sql<{ first: unknown }>`select min(created_at) as first from inbox_item where firm_id = ${firmId}`.execute(db);
  const first = row.rows[0]?.first;
  return first === null || first === undefined ? null : Number(first);
}

export async function notificationCounts(db: Kysely<DB>, scope: CountScope, range: Range, zone: string): Promise<NotificationCounts> {
  const from = range.from ?? (await firstNoticeAt(db, scope.firmId)) ?? range.to;
  const segments = offsetSegments(from, range.to, zone);
  const created = sql.ref("i.created_at");
  const rows = await sql<{ status: string; local_hour: unknown; n: unknown }>`
    select i.status as status, ${localMillis(created, segments)} / 3600000 as local_hour, count(*) as n
    from inbox_item i
    where i.firm_id = ${scope.firmId} and ${inPeriod(created, { from, to: range.to })} and ${outsideWalls(sql.ref("i.case_id"), scope)}
    group by i.status, local_hour`.execute(db);

  const byState = new Map<string, number>(INBOX_STATUSES.map((s) => [s, 0]));
  const byHour = Array.from({ length: 24 }, () => 0);
  const byMonth = new Map<string, number>(range.from === null && rows.rows.length === 0 ? [] : monthsBetween(from, range.to, zone).map((m) => [m, 0]));
  let total = 0;
  for (const row of rows.rows) {
    const n = num(row.n);
    const { month, hour } = localHourParts(num(row.local_hour));
    total += n;
    byState.set(row.status, (byState.get(row.status) ?? 0) + n);
    byHour[hour]! += n;
    byMonth.set(month, (byMonth.get(month) ?? 0) + n);
  }
  return {
    total,
    succeeded: byState.get("Succeeded") ?? 0,
    byState: [...byState].map(([key, count]) => ({ key, count })),
    byHour: byHour.map((count, hour) => ({ key: String(hour).padStart(2, "0"), count })),
    byMonth: [...byMonth].sort(([a], [b]) => a.localeCompare(b)).map(([key, count]) => ({ key, count })),
  };
}

export async function documentCounts(db: Kysely<DB>, scope: CountScope, range: Range): Promise<DocumentCounts> {
  const walled = scope.walledMatterIds.length > 0;
  const created = sql.ref("d.created_at");
  const rows = await sql<Record<keyof DocumentCounts, unknown>>`
    select count(*) as received,
      sum(case when d.fetch_status = 'fetched' then 1 else 0 end) as fetched,
      sum(case when d.dms_status = 'succeeded' then 1 else 0 end) as stored,
      sum(case when d.fetch_status = 'failed' or d.dms_status = 'failed' then 1 else 0 end) as failed,
      sum(case when d.sealed = 1 or d.fetch_status = 'restricted' then 1 else 0 end) as sealed
    from document d ${walled ? sql`inner join envelope e on e.id = d.envelope_id` : sql``}
    where d.firm_id = ${scope.firmId} and ${inPeriod(created, range)} and ${walled ? outsideWalls(sql.ref("e.case_id"), scope) : sql`1 = 1`}`.execute(db);
  const row = rows.rows[0];
  return { received: num(row?.received), fetched: num(row?.fetched), stored: num(row?.stored), failed: num(row?.failed), sealed: num(row?.sealed) };
}

const TOP_QUERIES: Record<TopKind, RawBuilder<unknown>> = {
  matter: sql`select 'matter' as kind, m.id as id, m.name as name, sum(x.n) as n
    from per_case x inner join court_case c on c.id = x.case_id inner join matter m on m.id = c.matter_id
    group by m.id, m.name order by n desc, m.name limit ${sql.lit(TOP_SIZE)}`,
  client: sql`select 'client' as kind, cl.id as id, cl.name as name, sum(x.n) as n
    from per_case x inner join court_case c on c.id = x.case_id inner join matter m on m.id = c.matter_id inner join client cl on cl.id = m.client_id
    group by cl.id, cl.name order by n desc, cl.name limit ${sql.lit(TOP_SIZE)}`,
  timekeeper: sql`select 'timekeeper' as kind, t.id as id, t.full_name as name, sum(x.n) as n
    from per_case x inner join case_timekeeper ct on ct.case_id = x.case_id inner join timekeeper t on t.id = ct.timekeeper_id
    group by t.id, t.full_name order by n desc, t.full_name limit ${sql.lit(TOP_SIZE)}`,
};

/**
 * The top ten of each kind asked for, by notices in the period. The notices are counted per case
 * once (a scan of the period), and only those per-case counts are joined to matters, clients and
 * timekeepers.
 */
export async function topCounts(db: Kysely<DB>, scope: CountScope, range: Range, kinds: TopKind[]): Promise<Record<TopKind, Ranked[]>> {
  const out: Record<TopKind, Ranked[]> = { client: [], matter: [], timekeeper: [] };
  if (kinds.length === 0) return out;
  const created = sql.ref("i.created_at");
  const parts = kinds.map((k) => sql`select * from (${TOP_QUERIES[k]}) as top_${sql.raw(k)}`);
  const rows = await sql<{ kind: TopKind; id: string; name: string; n: unknown }>`
    with per_case as materialized (
      select i.case_id as case_id, count(*) as n from inbox_item i
      where i.firm_id = ${scope.firmId} and ${inPeriod(created, range)} and i.case_id is not null and ${outsideWalls(sql.ref("i.case_id"), scope)}
      group by i.case_id
    )
    ${sql.join(parts, sql` union all `)}`.execute(db);
  for (const row of rows.rows) out[row.kind].push({ id: row.id, name: row.name, count: num(row.n) });
  for (const list of Object.values(out)) list.sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  return out;
}
