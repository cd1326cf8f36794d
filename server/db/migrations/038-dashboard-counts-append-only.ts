import { type Kysely, sql } from "kysely";

// Frozen: on PostgreSQL the dashboard's kept counts (017, 020, 021) are added to, never updated in
// place. Every notice of a firm in the same hour adds to the same count rows; an upsert locks
// those rows to the end of its transaction, so the workers of a busy firm waited on each other and,
// taking the rows in different orders (a notice stored, another's status changed), deadlocked,
// which sent notices to Retry for nothing. The triggers now insert one row per change; several rows
// of one bucket add up when read, as every read already sums them, and a periodic compaction
// (server/dashboard/compact-counts.ts) folds the buckets that changed lately back into one row. SQLite has one writer at a time
// and keeps its upserts. Never imports application code.

type Dialect = "sqlite" | "postgres";

const KEYS: Record<string, string> = {
  dashboard_notice_count: "firm_id, level, bucket, status",
  dashboard_quarter_count: "firm_id, level, bucket, quarter",
  dashboard_key_count: "firm_id, level, bucket, kind, key_id",
  dashboard_document_count: "firm_id, level, bucket",
};

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== "postgres") return;
  for (const [table, keys] of Object.entries(KEYS)) {
    // The key count keeps its count in the index, so the top tens still read the index alone (021).
    const include = table === "dashboard_key_count" ? " include (n)" : "";
    await sql.raw(`alter table ${table} drop constraint ${table}_pk`).execute(db);
    await sql.raw(`create index ${table}_key on ${table} (${keys})${include}`).execute(db);
    // When a row was added, so the compaction reads only what changed lately. The rows already
    // here have none (no rewrite of a large table) and are one per key already.
    await sql.raw(`alter table ${table} add column added_at bigint`).execute(db);
    await sql.raw(`alter table ${table} alter column added_at set default ((extract(epoch from clock_timestamp()) * 1000)::bigint)`).execute(db);
    await sql.raw(`create index ${table}_added on ${table} (added_at)`).execute(db);
  }
  // The trigger functions of 017 and 020, their upserts made inserts.
  const functions = await sql<{ name: string; body: string }>`
    select p.proname as name, p.prosrc as body from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = current_schema() and p.proname like 'dashboard%'`.execute(db);
  for (const { name, body } of functions.rows) {
    const inserts = body.replace(/\s+on conflict \([^)]*\) do update set [^;]*/g, "");
    if (inserts === body) continue;
    await sql.raw(`create or replace function ${name}() returns trigger language plpgsql as $fn$${inserts}$fn$`).execute(db);
  }
}
