import { type RawBuilder, sql } from "kysely";
import type { Database } from "../../server/db/database";
import { describe, expect, it } from "vitest";
import { COUNT_TABLES } from "../../server/dashboard/count-tables";
import { keptRows, pendingLadder } from "../../server/dashboard/kept-counts";
import { backends, useApi } from "./harness";

// On PostgreSQL the dashboard reads a period's kept counts from the index alone (migrations 021
// and 073): each count table's index by bucket carries the counts, so a read of a bucket's counts
// never fetches the scattered table pages the triggers' one-row-per-change inserts leave. The
// changes not yet moved into the counts (migration 077) are read through their own index by firm and time.

const READS: [table: string, columns: string][] = [
  ["dashboard_notice_count", "status, n"],
  ["dashboard_quarter_count", "quarter, n"],
  ["dashboard_document_count", "received, fetched, stored, failed, sealed"],
  ["dashboard_key_count", "kind, key_id, n"],
];

/** The plan of `query`, with scans of whole tables and bitmaps discouraged, as a table this small would otherwise be read. */
async function planOf(db: Database["db"], query: RawBuilder<unknown>): Promise<string> {
  return db.connection().execute(async (conn) => {
    await sql`set enable_seqscan = off`.execute(conn);
    await sql`set enable_bitmapscan = off`.execute(conn);
    try {
      const rows = await sql<{ "QUERY PLAN": string }>`explain ${query}`.execute(conn);
      return rows.rows.map((r) => r["QUERY PLAN"]).join("\n");
    } finally {
      await sql`reset enable_seqscan`.execute(conn);
      await sql`reset enable_bitmapscan`.execute(conn);
    }
  });
}

describe.runIf(backends.includes("postgres"))("dashboard counts read from their index (postgres)", () => {
  const server = useApi({ backend: "postgres" });

  it("answers each count table's read by bucket with an index-only scan", async () => {
    const db = server().ctx.database.db;
    for (const [table] of READS) await sql.raw(`vacuum analyze ${table}`).execute(db);
    for (const [table, columns] of READS) {
      // As aggregates.ts reads them: a firm's buckets named in a list of (level, bucket).
      const plan = await planOf(
        db,
        sql`select ${sql.raw(columns)} from ${sql.table(table)} t where t.firm_id = 1 and (t.level, t.bucket) in (values (1, 20421), (2, 10211), (5, 1277))`,
      );
      expect(plan, table).toContain(`Index Only Scan using ${table}_key`);
    }
  });

  it("reads the pending rows of the buckets asked for through their index by firm and time", async () => {
    const database = server().ctx.database;
    const ladder = await pendingLadder(database);
    for (const table of Object.values(COUNT_TABLES)) {
      await sql.raw(`vacuum analyze ${table.counts}, ${table.pending}`).execute(database.db);
      const plan = await planOf(
        database.db,
        keptRows(ladder, table, 1, [
          { level: 1, bucket: 20421 },
          { level: 2, bucket: 10211 },
          { level: 5, bucket: 1277 },
        ]),
      );
      expect(plan, table.counts).toContain(`Index Only Scan using ${table.counts}_key`);
      expect(plan, table.pending).toContain(`Index Scan using ${table.pending}_key on ${table.pending} p`);
      expect(plan, table.pending).toMatch(/Index Cond: \(\(firm_id = 1\) AND \(starts_at >= '\d+'::bigint\) AND \(starts_at < '\d+'::bigint\)\)/);
    }
  });
});
