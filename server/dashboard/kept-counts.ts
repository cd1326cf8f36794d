import { type Kysely, type RawBuilder, sql } from "kysely";
import type { DB } from "../db/schema";
import type { DocumentCounts } from "../../app/common/dashboard-answer";
import type { Block, SignedBlock } from "./tiling";

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

const keyOf = (b: Block) => `${b.level}:${b.bucket}`;

/**
 * Our own numbers (integers from the tiling), written into the text as one piece: a long list of
 * parameters costs more to bind, and a fragment per number more to compile.
 */
function inBlocks(alias: string, blocks: Block[]): RawBuilder<unknown> {
  const unique = new Map(blocks.map((b) => [keyOf(b), `(${Math.trunc(b.level)}, ${Math.trunc(b.bucket)})`]));
  return sql`(${sql.ref(`${alias}.level`)}, ${sql.ref(`${alias}.bucket`)}) in (values ${sql.raw([...unique.values()].join(", "))})`;
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
export async function keptNoticesByMonth(db: Kysely<DB>, firmId: number, blocks: MonthBlock[]): Promise<{ month: string; status: string; n: number }[]> {
  if (blocks.length === 0) return [];
  const rows = await sql<{ level: unknown; bucket: unknown; status: string; n: unknown }>`
    select s.level as level, s.bucket as bucket, s.status as status, sum(s.n) as n
    from dashboard_notice_count s
    where s.firm_id = ${firmId} and ${inBlocks("s", blocks)}
    group by s.level, s.bucket, s.status`.execute(db);
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
export async function keptNoticesByHour(db: Kysely<DB>, firmId: number, blocks: SignedBlock[], shifts: LabelStart[]): Promise<{ hour: number; n: number }[]> {
  if (blocks.length === 0) return [];
  const read = (some: Block[], sign: RawBuilder<unknown>) => sql`
    select ((q.quarter + ${labelOf("q", shifts)}) % 96) / 4 as hour, ${sign} * q.n as n
    from dashboard_quarter_count q inner join dashboard_level l on l.level = q.level
    where q.firm_id = ${firmId} and ${inBlocks("q", some)}`;
  const rows = await sql<{ hour: unknown; n: unknown }>`select h.hour as hour, sum(h.n) as n from (${bySign(blocks, read)}) as h group by h.hour`.execute(db);
  return rows.rows.map((r) => ({ hour: num(r.hour), n: num(r.n) }));
}

export async function keptDocuments(db: Kysely<DB>, firmId: number, blocks: SignedBlock[]): Promise<DocumentCounts> {
  if (blocks.length === 0) return { received: 0, fetched: 0, stored: 0, failed: 0, sealed: 0 };
  const read = (some: Block[], sign: RawBuilder<unknown>) => sql`
    select ${sign} * d.received as received, ${sign} * d.fetched as fetched, ${sign} * d.stored as stored, ${sign} * d.failed as failed, ${sign} * d.sealed as sealed
    from dashboard_document_count d where d.firm_id = ${firmId} and ${inBlocks("d", some)}`;
  const rows = await sql<Record<keyof DocumentCounts, unknown>>`
    select sum(x.received) as received, sum(x.fetched) as fetched, sum(x.stored) as stored, sum(x.failed) as failed, sum(x.sealed) as sealed
    from (${bySign(blocks, read)}) as x`.execute(db);
  const row = rows.rows[0];
  return { received: num(row?.received), fetched: num(row?.fetched), stored: num(row?.stored), failed: num(row?.failed), sealed: num(row?.sealed) };
}

/** Notices per matter and per timekeeper in the buckets, as a query to join (kind, key_id, n). */
export function keptKeysQuery(firmId: number, blocks: SignedBlock[]): RawBuilder<unknown> {
  const read = (some: Block[], sign: RawBuilder<unknown>) =>
    sql`select k.kind as kind, k.key_id as key_id, ${sign} * k.n as n from dashboard_key_count k where k.firm_id = ${firmId} and ${inBlocks("k", some)}`;
  return blocks.length === 0 ? sql`select k.kind as kind, k.key_id as key_id, k.n as n from dashboard_key_count k where 1 = 0` : bySign(blocks, read);
}
