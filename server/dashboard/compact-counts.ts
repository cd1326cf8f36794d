import { sql } from "kysely";
import type { ServerContext } from "../context";
import type { Database } from "../db/database";
import { logger } from "../../app/common/logger";

// On PostgreSQL the kept counts are added to, one row per change (migration 038), so that workers
// never wait on each other's count rows. This folds the rows of each bucket changed in the last
// minutes back into one, every half minute, in one worker at a time; reads sum the rows, so they
// answer the same before and after.

const EVERY_MS = 30_000;
/** The advisory lock that lets one compaction run at a time across machines. */
const LOCK = 72_410_038;

interface CountTable {
  name: string;
  keys: string[];
  values: string[];
  /** A key folded to nothing keeps a row: its new row's version is what tells readers it changed. */
  keepsZero?: boolean;
}

const TABLES: CountTable[] = [
  { name: "dashboard_notice_count", keys: ["firm_id", "level", "bucket", "status"], values: ["n"] },
  { name: "dashboard_quarter_count", keys: ["firm_id", "level", "bucket", "quarter"], values: ["n"] },
  { name: "dashboard_key_count", keys: ["firm_id", "level", "bucket", "kind", "key_id"], values: ["n"] },
  { name: "dashboard_document_count", keys: ["firm_id", "level", "bucket"], values: ["received", "fetched", "stored", "failed", "sealed"] },
  // The firms' kept row counts of the searched tables (migration 049), read by server/resources/row-counts.ts.
  { name: "firm_row_count", keys: ["firm_id", "table_name"], values: ["n"], keepsZero: true },
];

/** Rows added this long ago or less are looked at: twice the interval, for transactions committed late. */
const LOOK_BACK_MS = 4 * EVERY_MS;

/** `since`: the database's time (milliseconds) after which rows count as changed lately, or null for all. */
function compactStatement({ name, keys, values, keepsZero }: CountTable, since: number | null): string {
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
 * Folds the rows of each bucket changed in the last `lookBackMs` (every bucket with Infinity)
 * into one; false when another process is doing it.
 */
export async function compactDashboardCounts(database: Database, lookBackMs = LOOK_BACK_MS): Promise<boolean> {
  if (database.dialect !== "postgres") return true;
  return database.db.transaction().execute(async (trx) => {
    const locked = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${LOCK}) as locked`.execute(trx);
    if (!locked.rows[0]?.locked) return false;
    const now = await sql<{ ms: string }>`select (extract(epoch from clock_timestamp()) * 1000)::bigint as ms`.execute(trx);
    const since = lookBackMs === Infinity ? null : Number(now.rows[0]!.ms) - lookBackMs;
    for (const table of TABLES) await sql.raw(compactStatement(table, since)).execute(trx);
    return true;
  });
}

export function startCountCompaction(ctx: ServerContext): { stop(): void } {
  if (ctx.database.dialect !== "postgres") return { stop() {} };
  const timer = setInterval(() => {
    compactDashboardCounts(ctx.database).catch((error: unknown) => logger("worker").error({ err: error }, "could not compact the dashboard counts"));
  }, EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
