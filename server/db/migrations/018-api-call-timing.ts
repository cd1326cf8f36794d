import type { Kysely } from "kysely";

// Frozen: how long each signed-in API call took, kept for an hour, for the firm's slow-requests
// page. Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable("api_call_timing")
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("method", "text", (c) => c.notNull())
    .addColumn("route", "text", (c) => c.notNull())
    .addColumn("ms", "real", (c) => c.notNull())
    .addColumn("at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("api_call_timing_firm_at_idx").on("api_call_timing").columns(["firm_id", "at"]).execute();
}
