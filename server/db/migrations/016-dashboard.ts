import type { Kysely } from "kysely";

// Frozen: what the dashboard needs. Its counts read a period of a firm's notices and documents
// from the index alone (measurements in docs/benchmarks.md), and the firm says how many minutes
// of someone's work one notice handled by ECFX saves. Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable("firm")
    .addColumn("minutes_saved_per_notice", "integer", (c) => c.notNull().defaultTo(5))
    .execute();

  // A period's notices by state and hour, and per case for the top lists, without reading a row.
  // It starts with (firm_id, created_at), so it also serves everything the index it replaces did.
  await db.schema.createIndex("inbox_item_firm_created_status_case_idx").on("inbox_item").columns(["firm_id", "created_at", "status", "case_id"]).execute();
  await db.schema.dropIndex("inbox_item_firm_created_idx").execute();

  await db.schema.createIndex("document_firm_created_idx").on("document").columns(["firm_id", "created_at", "fetch_status", "dms_status", "sealed"]).execute();
}
