import { type Kysely, sql } from "kysely";
import type { ServerContext } from "../context";
import type { Database } from "../db/database";
import type { DB } from "../db/schema";
import { type CountTable, COUNT_TABLES } from "./count-tables";
import { logger } from "../../app/common/logger";

// On PostgreSQL the triggers write each counted change once, at its hour, into a pending table
// (migration 077), and the kept counts are added to, one row per bucket moved, never updated in
// place (038), so that workers never wait on each other's count rows. Every half minute, in one
// worker at a time, this moves the pending rows into every level's buckets, grouped, and deletes
// them, then folds the rows of each bucket changed in the last minutes back into one, all in one
// transaction; reads sum the count rows and the pending rows in one statement, so they answer the
// same before, during and after.

const EVERY_MS = 30_000;
/** The advisory lock that lets one compaction run at a time across machines. */
const LOCK = 72_410_038;

interface FoldedTable {
  name: string;
  keys: readonly string[];
  values: readonly string[];
  /** A key folded to nothing keeps a row: its new row's version is what tells readers it changed. */
  keepsZero?: boolean;
}

const FOLDED: FoldedTable[] = [
  ...Object.values(COUNT_TABLES).map((t) => ({ name: t.counts, keys: ["firm_id", "level", "bucket", ...t.keys], values: t.values })),
  // The firms' kept row counts of the searched tables (migration 049), read by server/resources/row-counts.ts.
  { name: "firm_row_count", keys: ["firm_id", "table_name"], values: ["n"], keepsZero: true },
];

/** Rows added this long ago or less are looked at: twice the interval, for transactions committed late. */
const LOOK_BACK_MS = 4 * EVERY_MS;

/**
 * The pending rows of `t` moved into the buckets of every level they count in, each bucket's
 * changes summed into one row (none where they add up to nothing). The delete takes the rows
 * committed when the statement starts; rows committed later wait for the next compaction.
 */
function moveStatement(t: CountTable): string {
  const keys = t.keys.map((k) => `p.${k}`);
  const sums = t.values.map((v) => `sum(p.${v})`);
  const group = ["p.firm_id", "l.level", "p.starts_at / l.size_ms", ...keys].join(", ");
  return `with p as (delete from ${t.pending} returning *)
    insert into ${t.counts} (firm_id, level, bucket, ${[...t.keys, ...t.values].join(", ")})
    select ${group}, ${sums.join(", ")} from p inner join dashboard_level l on l.size_ms >= ${t.smallest}
    group by ${group} having ${sums.map((s) => `${s} <> 0`).join(" or ")}`;
}

/** `since`: the database's time (milliseconds) after which rows count as changed lately, or null for all. */
function compactStatement({ name, keys, values, keepsZero }: FoldedTable, since: number | null): string {
  const keyList = keys.join(", ");
  const sums = values.map((v) => `sum(${v})`);
  // A number, not the clock in the statement: a volatile function keeps the index on added_at out.
  const changedLately = since === null ? "true" : `added_at > ${Math.trunc(since)}`;
  return `with changed as (select distinct ${keyList} from ${name} where ${changedLately}),
    folded as (select ${keyList} from ${name} t inner join changed using (${keyList}) group by ${keyList} having count(*) > 1),
    moved as (delete from ${name} t using folded f where ${keys.map((k) => `t.${k} = f.${k}`).join(" and ")} returning t.*)
    insert into ${name} (${keyList}, ${values.join(", ")})
    select ${keyList}, ${sums.join(", ")} from moved group by ${keyList}${keepsZero ? "" : ` having ${sums.map((s) => `${s} <> 0`).join(" or ")}`}`;
}

/**
 * Moves the pending rows into the count tables, then folds the rows of each bucket changed in the
 * last `lookBackMs` (every bucket with Infinity) into one; false when another process is doing it.
 */
export async function compactDashboardCounts(database: Database, lookBackMs = LOOK_BACK_MS): Promise<boolean> {
  if (database.dialect !== "postgres") return true;
  return database.db.transaction().execute((trx) => compactCountsIn(trx, lookBackMs));
}

/**
 * The compaction in the caller's transaction (PostgreSQL), which it holds the lock of until it
 * ends: readers see what it moved and folded only once the transaction commits, and all at once.
 */
export async function compactCountsIn(trx: Kysely<DB>, lookBackMs = LOOK_BACK_MS): Promise<boolean> {
  const locked = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${LOCK}) as locked`.execute(trx);
  if (!locked.rows[0]?.locked) return false;
  const now = await sql<{ ms: string }>`select (extract(epoch from clock_timestamp()) * 1000)::bigint as ms`.execute(trx);
  const since = lookBackMs === Infinity ? null : Number(now.rows[0]!.ms) - lookBackMs;
  // The moved rows are added now: the folding below looks at them too.
  for (const table of Object.values(COUNT_TABLES)) await sql.raw(moveStatement(table)).execute(trx);
  for (const table of FOLDED) await sql.raw(compactStatement(table, since)).execute(trx);
  return true;
}

export function startCountCompaction(ctx: ServerContext): { stop(): void } {
  if (ctx.database.dialect !== "postgres") return { stop() {} };
  const timer = setInterval(() => {
    compactDashboardCounts(ctx.database).catch((error: unknown) => logger("worker").error({ err: error }, "could not compact the dashboard counts"));
  }, EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
