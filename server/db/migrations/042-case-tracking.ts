import type { Kysely } from "kysely";

// Frozen: ECFX Track (spec §4 case tracking) and case retrieve. A case's subscription with the
// prices agreed when it was taken; one period row per stretch of paid tracking (subscribe or
// resume to stop or unsubscribe), which is what billing reads; the court docket entries already
// turned into inbox items, so an entry is received once; and the last retrieve of a case.
// Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable("case_tracking")
    .addColumn("case_id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("subscribed_at", "bigint", (c) => c.notNull())
    .addColumn("stopped_at", "bigint")
    .addColumn("resumed_at", "bigint")
    .addColumn("monthly_fee_cents", "integer", (c) => c.notNull())
    .addColumn("per_document_cents", "integer", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull().defaultTo("USD"))
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("case_tracking_firm").on("case_tracking").columns(["firm_id", "state"]).execute();

  await db.schema
    .createTable("case_tracking_period")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("case_id", "text", (c) => c.notNull())
    .addColumn("started_at", "bigint", (c) => c.notNull())
    .addColumn("ended_at", "bigint")
    .addColumn("monthly_fee_cents", "integer", (c) => c.notNull())
    .addColumn("per_document_cents", "integer", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull().defaultTo("USD"))
    .addColumn("documents", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("case_tracking_period_case").on("case_tracking_period").columns(["firm_id", "case_id", "started_at"]).execute();

  await db.schema
    .createTable("case_docket_entry")
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("case_id", "text", (c) => c.notNull())
    .addColumn("entry_key", "text", (c) => c.notNull())
    .addColumn("inbox_item_id", "text", (c) => c.notNull())
    .addColumn("period_id", "text")
    .addColumn("published_at", "bigint", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("case_docket_entry_pk", ["firm_id", "case_id", "entry_key"])
    .execute();

  await db.schema
    .createTable("case_retrieve")
    .addColumn("case_id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("mode", "text", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
}
