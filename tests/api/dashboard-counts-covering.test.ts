import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { backends, useApi } from "./harness";

// On PostgreSQL the dashboard reads a period's kept counts from the index alone (migrations 021
// and 073): each count table's index by bucket carries the counts, so a read of a bucket's counts
// never fetches the scattered table pages the triggers' one-row-per-change inserts leave.

const READS: [table: string, columns: string][] = [
  ["dashboard_notice_count", "status, n"],
  ["dashboard_quarter_count", "quarter, n"],
  ["dashboard_document_count", "received, fetched, stored, failed, sealed"],
  ["dashboard_key_count", "kind, key_id, n"],
];

describe.runIf(backends.includes("postgres"))("dashboard counts read from their index (postgres)", () => {
  const server = useApi({ backend: "postgres" });

  it("answers each count table's read by bucket with an index-only scan", async () => {
    const db = server().ctx.database.db;
    for (const [table] of READS) await sql.raw(`vacuum analyze ${table}`).execute(db);
    for (const [table, columns] of READS) {
      // As aggregates.ts reads them: a firm's buckets named in a list of (level, bucket).
      const plan = await db.connection().execute(async (conn) => {
        await sql`set enable_seqscan = off`.execute(conn);
        await sql`set enable_bitmapscan = off`.execute(conn);
        try {
          const rows = await sql<{ "QUERY PLAN": string }>`explain select ${sql.raw(columns)} from ${sql.table(table)} t
            where t.firm_id = 1 and (t.level, t.bucket) in (values (1, 20421), (2, 10211), (5, 1277))`.execute(conn);
          return rows.rows.map((r) => r["QUERY PLAN"]).join("\n");
        } finally {
          await sql`reset enable_seqscan`.execute(conn);
          await sql`reset enable_bitmapscan`.execute(conn);
        }
      });
      expect(plan, table).toContain(`Index Only Scan using ${table}_key`);
    }
  });
});
