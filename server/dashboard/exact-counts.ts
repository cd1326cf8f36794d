import { type Kysely, type RawBuilder, sql } from "kysely";
import type { DB } from "../db/schema";
import type { DocumentCounts } from "../../app/common/dashboard-answer";
import type { OffsetSegment, Range } from "./period-range";

// Counts read from the notices and documents themselves, for what the kept counts cannot answer:
// the minutes at the ends of a period that fall inside an hour, and the notices of the matters an
// ethical wall keeps the caller out of (taken off the firm's counts). Both are few rows, found
// through indexes on the time and on the case.

/** Which rows: a firm's, in some stretches of time, optionally only on cases of some matters. */
export interface RowFilter {
  firmId: number;
  ranges: Range[];
  /** Only notices on cases of these matters (the walled ones); null for every notice. */
  onlyMatters: string[] | null;
}

export interface NoticeRow {
  status: string;
  /** Hours since the local epoch (the instant plus the zone's offset). */
  localHour: number;
  n: number;
}

export interface KeyRow {
  kind: "matter" | "timekeeper";
  id: string;
  n: number;
}

const num = (v: unknown) => Number(v ?? 0);

/**
 * The firm's rows of `table` in the ranges, as a derived table: one index range per stretch, put
 * together with UNION ALL (an OR of stretches would have the database read everything between them).
 */
function rowsIn(table: "inbox_item" | "document", columns: string[], filter: RowFilter): RawBuilder<unknown> {
  // Notices of walled matters are found through their cases (index on case and time).
  const cases = table === "inbox_item" ? sql`and ${onCases(sql.ref("case_id"), filter)}` : sql``;
  const one = (r: Range) => {
    const from = r.from === null ? sql`` : sql`and created_at >= ${r.from}`;
    return sql`select ${sql.raw(columns.join(", "))} from ${sql.table(table)} where firm_id = ${filter.firmId} ${from} and created_at < ${r.to} ${cases}`;
  };
  return sql`(${sql.join(filter.ranges.map(one), sql` union all `)})`;
}

const NOTICE_COLUMNS = ["created_at", "status", "case_id"];

function onCases(caseColumn: RawBuilder<unknown>, filter: RowFilter): RawBuilder<unknown> {
  if (filter.onlyMatters === null) return sql`1 = 1`;
  return sql`${caseColumn} in (select wc.id from court_case wc where wc.firm_id = ${filter.firmId} and wc.matter_id in (${sql.join(filter.onlyMatters)}))`;
}

/** The local time of `column` (UTC milliseconds) as milliseconds; offsets are our own numbers, written as literals. */
function localMillis(column: RawBuilder<unknown>, segments: OffsetSegment[]): RawBuilder<unknown> {
  if (segments.length === 1) return sql`(${column} + ${sql.lit(segments[0]!.offset)})`;
  const branches = segments.slice(1).map((s, i) => sql`when ${column} < ${sql.lit(s.start)} then ${sql.lit(segments[i]!.offset)}`);
  return sql`(${column} + case ${sql.join(branches, sql` `)} else ${sql.lit(segments[segments.length - 1]!.offset)} end)`;
}

/** Notices by state and local hour number; `segments` are the zone's offsets over the ranges. */
export async function exactNotices(db: Kysely<DB>, filter: RowFilter, segments: OffsetSegment[]): Promise<NoticeRow[]> {
  if (filter.ranges.length === 0) return [];
  const created = sql.ref("i.created_at");
  const rows = await sql<{ status: string; local_hour: unknown; n: unknown }>`
    select i.status as status, ${localMillis(created, segments)} / 3600000 as local_hour, count(*) as n
    from ${rowsIn("inbox_item", NOTICE_COLUMNS, filter)} as i
    group by i.status, local_hour`.execute(db);
  return rows.rows.map((r) => ({ status: r.status, localHour: num(r.local_hour), n: num(r.n) }));
}

export async function exactDocuments(db: Kysely<DB>, filter: RowFilter): Promise<DocumentCounts> {
  const zero = { received: 0, fetched: 0, stored: 0, failed: 0, sealed: 0 };
  if (filter.ranges.length === 0) return zero;
  // Documents of walled matters are found through their cases' envelopes.
  const documents =
    filter.onlyMatters === null
      ? sql`${rowsIn("document", ["fetch_status", "dms_status", "sealed"], filter)} as d`
      : sql`court_case wc inner join envelope e on e.case_id = wc.id inner join document d on d.envelope_id = e.id
          and d.firm_id = ${filter.firmId} and (${sql.join(
            filter.ranges.map((r) => (r.from === null ? sql`(d.created_at < ${r.to})` : sql`(d.created_at >= ${r.from} and d.created_at < ${r.to})`)),
            sql` or `,
          )})`;
  const walled = filter.onlyMatters === null ? sql`` : sql`where wc.firm_id = ${filter.firmId} and wc.matter_id in (${sql.join(filter.onlyMatters)})`;
  const rows = await sql<Record<keyof DocumentCounts, unknown>>`
    select count(*) as received,
      sum(case when d.fetch_status = 'fetched' then 1 else 0 end) as fetched,
      sum(case when d.dms_status = 'succeeded' then 1 else 0 end) as stored,
      sum(case when d.fetch_status = 'failed' or d.dms_status = 'failed' then 1 else 0 end) as failed,
      sum(case when d.sealed = 1 or d.fetch_status = 'restricted' then 1 else 0 end) as sealed
    from ${documents} ${walled}`.execute(db);
  const row = rows.rows[0];
  return { received: num(row?.received), fetched: num(row?.fetched), stored: num(row?.stored), failed: num(row?.failed), sealed: num(row?.sealed) };
}

/** Notices per matter (through the case) and per timekeeper (through the case's assignments), as a query to join. */
export function exactKeysQuery(filter: RowFilter): RawBuilder<KeyRow> {
  const items = rowsIn("inbox_item", NOTICE_COLUMNS, filter);
  return sql<KeyRow>`
    select 'matter' as kind, c.matter_id as key_id, count(*) as n from ${items} as i inner join court_case c on c.id = i.case_id
    where c.matter_id is not null group by c.matter_id
    union all
    select 'timekeeper' as kind, ct.timekeeper_id as key_id, count(*) as n from ${items} as i inner join case_timekeeper ct on ct.case_id = i.case_id
    group by ct.timekeeper_id`;
}
