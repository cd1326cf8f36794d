import { type RawBuilder, sql } from "kysely";
import type { Database } from "../db/database";
import type { DocumentCounts } from "../../app/common/dashboard-answer";
import { type CountTable, COUNT_TABLES } from "./count-tables";
import { type Block, type Ladder, type SignedBlock, ladderOf } from "./tiling";

// Reads of the counts the triggers keep (migration 017). The buckets asked for are written into
// the query as `(level, bucket) in (values …)`, which both databases answer by looking each one up
// in the table's primary key. (Joined to the same list as a table instead, SQLite may build an
// index over all the firm's counts for each request, a hundred times slower on a year.)
// On PostgreSQL the changes of about the last half minute are still in the pending tables (migration
// 077), one row at the start of their hour (day): each read adds those that fall in the buckets asked
// for, in the same statement, so that it sees the compaction's move of them entirely or not at all.

/** Where a label starts: buckets from `from` on, until the next label, are counted under it. */
export interface LabelStart {
  from: number;
  label: string | number;
}

const num = (v: unknown) => Number(v ?? 0);

const keyOf = (b: Block) => `${b.level}:${b.bucket}`;

/**
 * Our own numbers (integers from the tiling), written into the text as one piece: a long list of
 * parameters costs more to bind, and a fragment per number more to compile.
 */
function inBlocks(level: RawBuilder<unknown>, bucket: RawBuilder<unknown>, blocks: Block[]): RawBuilder<unknown> {
  const unique = new Map(blocks.map((b) => [keyOf(b), `(${Math.trunc(b.level)}, ${Math.trunc(b.bucket)})`]));
  return sql`(${level}, ${bucket}) in (values ${sql.raw([...unique.values()].join(", "))})`;
}

/** On PostgreSQL, which has pending rows to read, the bucket sizes they are read by; null on SQLite. */
export async function pendingLadder(database: Database): Promise<Ladder | null> {
  return database.dialect === "postgres" ? ladderOf(database.db) : null;
}

/**
 * The firm's rows of `table` in the buckets, as (level, bucket, its keys and values): the count
 * rows, and with `ladder` (PostgreSQL) the pending rows, each counted in every bucket asked for
 * that it falls in.
 */
export function keptRows(ladder: Ladder | null, table: CountTable, firmId: number, blocks: Block[]): RawBuilder<unknown> {
  const columns = (alias: string) => sql.join([...table.keys, ...table.values].map((c) => sql.ref(`${alias}.${c}`)));
  const counted = sql`select c.level as level, c.bucket as bucket, ${columns("c")} from ${sql.table(table.counts)} c
    where c.firm_id = ${firmId} and ${inBlocks(sql.ref("c.level"), sql.ref("c.bucket"), blocks)}`;
  if (!ladder) return counted;
  // The pending rows of the stretch the buckets cover, through the index by firm and time.
  const sizes = new Map(ladder.map((s) => [s.level, s.size]));
  const starts = blocks.map((b) => b.bucket * sizes.get(b.level)!);
  const ends = blocks.map((b) => (b.bucket + 1) * sizes.get(b.level)!);
  const bucket = sql`p.starts_at / l.size_ms`;
  const pending = sql`select l.level as level, ${bucket} as bucket, ${columns("p")}
    from ${sql.table(table.pending)} p inner join dashboard_level l on l.size_ms >= ${sql.lit(table.smallest)} and ${inBlocks(sql.ref("l.level"), bucket, blocks)}
    where p.firm_id = ${firmId} and p.starts_at >= ${sql.lit(Math.min(...starts))} and p.starts_at < ${sql.lit(Math.max(...ends))}`;
  return sql`${counted} union all ${pending}`;
}

/**
 * A read of the buckets counted in and, with its counts negated (`sign` -1), of those taken off,
 * put together: a sign worked out per row would test every row against the list again.
 */
function bySign(blocks: SignedBlock[], read: (blocks: Block[], sign: RawBuilder<unknown>) => RawBuilder<unknown>): RawBuilder<unknown> {
  const on = blocks.filter((b) => b.sign > 0);
  const off = blocks.filter((b) => b.sign < 0);
  const parts = [...(on.length > 0 ? [read(on, sql`1`)] : []), ...(off.length > 0 ? [read(off, sql`-1`)] : [])];
  return sql.join(parts, sql` union all `);
}

/** The label of the bucket's first instant (its level's size from `dashboard_level l`). */
function labelOf(alias: string, starts: LabelStart[]): RawBuilder<unknown> {
  const start = sql`(${sql.ref(`${alias}.bucket`)} * l.size_ms)`;
  const branches = starts.slice(1).map((s, i) => sql`when ${start} < ${sql.lit(s.from)} then ${sql.lit(starts[i]!.label)}`);
  const last = sql.lit(starts[starts.length - 1]!.label);
  return branches.length === 0 ? last : sql`case ${sql.join(branches, sql` `)} else ${last} end`;
}

/** A bucket of one local month, counted in or taken off. */
export interface MonthBlock extends SignedBlock {
  month: string;
}

/**
 * Notices by state and local month. Two months may share a bucket with opposite signs (the hours
 * between UTC and local midnight on the 1st), so each bucket's counts are read once and labelled here.
 */
export async function keptNoticesByMonth(database: Database, firmId: number, blocks: MonthBlock[]): Promise<{ month: string; status: string; n: number }[]> {
  if (blocks.length === 0) return [];
  const ladder = await pendingLadder(database);
  const rows = await sql<{ level: unknown; bucket: unknown; status: string; n: unknown }>`
    select s.level as level, s.bucket as bucket, s.status as status, sum(s.n) as n
    from (${keptRows(ladder, COUNT_TABLES.notice, firmId, blocks)}) as s
    group by s.level, s.bucket, s.status`.execute(database.db);
  const uses = new Map<string, MonthBlock[]>();
  for (const b of blocks) uses.set(keyOf(b), [...(uses.get(keyOf(b)) ?? []), b]);
  const counts = new Map<string, { month: string; status: string; n: number }>();
  for (const r of rows.rows) {
    for (const use of uses.get(keyOf({ level: num(r.level), bucket: num(r.bucket) })) ?? []) {
      const key = `${use.month}|${r.status}`;
      const count = counts.get(key) ?? { month: use.month, status: r.status, n: 0 };
      count.n += use.sign * num(r.n);
      counts.set(key, count);
    }
  }
  return [...counts.values()];
}

/** Notices by local hour of the day; `shifts` label each stretch with the zone's offset then, in quarter hours (0–95). */
export async function keptNoticesByHour(
  database: Database,
  firmId: number,
  blocks: SignedBlock[],
  shifts: LabelStart[],
): Promise<{ hour: number; n: number }[]> {
  if (blocks.length === 0) return [];
  const ladder = await pendingLadder(database);
  const read = (some: Block[], sign: RawBuilder<unknown>) => sql`
    select ((q.quarter + ${labelOf("q", shifts)}) % 96) / 4 as hour, ${sign} * q.n as n
    from (${keptRows(ladder, COUNT_TABLES.quarter, firmId, some)}) as q inner join dashboard_level l on l.level = q.level`;
  const rows = await sql<{ hour: unknown; n: unknown }>`select h.hour as hour, sum(h.n) as n from (${bySign(blocks, read)}) as h group by h.hour`.execute(
    database.db,
  );
  return rows.rows.map((r) => ({ hour: num(r.hour), n: num(r.n) }));
}

export async function keptDocuments(database: Database, firmId: number, blocks: SignedBlock[]): Promise<DocumentCounts> {
  if (blocks.length === 0) return { received: 0, fetched: 0, stored: 0, failed: 0, sealed: 0 };
  const ladder = await pendingLadder(database);
  const read = (some: Block[], sign: RawBuilder<unknown>) => sql`
    select ${sign} * d.received as received, ${sign} * d.fetched as fetched, ${sign} * d.stored as stored, ${sign} * d.failed as failed, ${sign} * d.sealed as sealed
    from (${keptRows(ladder, COUNT_TABLES.document, firmId, some)}) as d`;
  const rows = await sql<Record<keyof DocumentCounts, unknown>>`
    select sum(x.received) as received, sum(x.fetched) as fetched, sum(x.stored) as stored, sum(x.failed) as failed, sum(x.sealed) as sealed
    from (${bySign(blocks, read)}) as x`.execute(database.db);
  const row = rows.rows[0];
  return { received: num(row?.received), fetched: num(row?.fetched), stored: num(row?.stored), failed: num(row?.failed), sealed: num(row?.sealed) };
}

/** Notices per matter and per timekeeper in the buckets, as a query to join (kind, key_id, n); read in the statement it is part of. */
export async function keptKeysQuery(database: Database, firmId: number, blocks: SignedBlock[]): Promise<RawBuilder<unknown>> {
  if (blocks.length === 0) return sql`select k.kind as kind, k.key_id as key_id, k.n as n from dashboard_key_count k where 1 = 0`;
  const ladder = await pendingLadder(database);
  const read = (some: Block[], sign: RawBuilder<unknown>) =>
    sql`select k.kind as kind, k.key_id as key_id, ${sign} * k.n as n from (${keptRows(ladder, COUNT_TABLES.key, firmId, some)}) as k`;
  return bySign(blocks, read);
}
