import { type Kysely, type RawBuilder, sql } from "kysely";
import type { DB } from "../db/schema";
import type { DocumentCounts } from "../../app/common/dashboard-answer";
import type { Block } from "./tiling";

// Reads of the counts the triggers keep (migration 017). The buckets asked for are written into
// the query as `(level, bucket) in (values …)`, which both databases answer by looking each one up
// in the table's primary key. (Joined to the same list as a table instead, SQLite may build an
// index over all the firm's counts for each request, a hundred times slower on a year.)

/** Where a label starts: buckets from `from` on, until the next label, are counted under it. */
export interface LabelStart {
  from: number;
  label: string | number;
}

const num = (v: unknown) => Number(v ?? 0);

/** Our own numbers, written as literals (a long list of parameters costs more to bind). */
function inBlocks(alias: string, blocks: Block[]): RawBuilder<unknown> {
  const values = sql.join(
    blocks.map((b) => sql`(${sql.lit(b.level)}, ${sql.lit(b.bucket)})`),
    sql`, `,
  );
  return sql`(${sql.ref(`${alias}.level`)}, ${sql.ref(`${alias}.bucket`)}) in (values ${values})`;
}

/** The label of the bucket's first instant (its level's size from `dashboard_level l`). */
function labelOf(alias: string, starts: LabelStart[]): RawBuilder<unknown> {
  const start = sql`(${sql.ref(`${alias}.bucket`)} * l.size_ms)`;
  const branches = starts.slice(1).map((s, i) => sql`when ${start} < ${sql.lit(s.from)} then ${sql.lit(starts[i]!.label)}`);
  const last = sql.lit(starts[starts.length - 1]!.label);
  return branches.length === 0 ? last : sql`case ${sql.join(branches, sql` `)} else ${last} end`;
}

/** Notices by state and local month, labelled by the months' first instants. */
export async function keptNoticesByMonth(
  db: Kysely<DB>,
  firmId: number,
  blocks: Block[],
  months: LabelStart[],
): Promise<{ month: string; status: string; n: number }[]> {
  if (blocks.length === 0) return [];
  const rows = await sql<{ month: string; status: string; n: unknown }>`
    select ${labelOf("s", months)} as month, s.status as status, sum(s.n) as n
    from dashboard_notice_count s inner join dashboard_level l on l.level = s.level
    where s.firm_id = ${firmId} and ${inBlocks("s", blocks)}
    group by 1, s.status`.execute(db);
  return rows.rows.map((r) => ({ month: String(r.month), status: r.status, n: num(r.n) }));
}

/** Notices by local hour of the day; `shifts` label each stretch with the zone's offset then, in quarter hours (0–95). */
export async function keptNoticesByHour(db: Kysely<DB>, firmId: number, blocks: Block[], shifts: LabelStart[]): Promise<{ hour: number; n: number }[]> {
  if (blocks.length === 0) return [];
  const rows = await sql<{ hour: unknown; n: unknown }>`
    select ((q.quarter + ${labelOf("q", shifts)}) % 96) / 4 as hour, sum(q.n) as n
    from dashboard_quarter_count q inner join dashboard_level l on l.level = q.level
    where q.firm_id = ${firmId} and ${inBlocks("q", blocks)}
    group by 1`.execute(db);
  return rows.rows.map((r) => ({ hour: num(r.hour), n: num(r.n) }));
}

export async function keptDocuments(db: Kysely<DB>, firmId: number, blocks: Block[]): Promise<DocumentCounts> {
  if (blocks.length === 0) return { received: 0, fetched: 0, stored: 0, failed: 0, sealed: 0 };
  const rows = await sql<Record<keyof DocumentCounts, unknown>>`
    select sum(d.received) as received, sum(d.fetched) as fetched, sum(d.stored) as stored, sum(d.failed) as failed, sum(d.sealed) as sealed
    from dashboard_document_count d where d.firm_id = ${firmId} and ${inBlocks("d", blocks)}`.execute(db);
  const row = rows.rows[0];
  return { received: num(row?.received), fetched: num(row?.fetched), stored: num(row?.stored), failed: num(row?.failed), sealed: num(row?.sealed) };
}

/** Notices per matter and per timekeeper in the buckets, as a query to join (kind, key_id, n). */
export function keptKeysQuery(firmId: number, blocks: Block[]): RawBuilder<unknown> {
  return sql`select k.kind as kind, k.key_id as key_id, k.n as n from dashboard_key_count k
    where k.firm_id = ${firmId} and ${blocks.length === 0 ? sql`1 = 0` : inBlocks("k", blocks)}`;
}
