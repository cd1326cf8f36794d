import type { Kysely } from "kysely";

// Frozen: when ECFX first fetched a document the court had not stamped yet, so the wait for the
// stamp is counted from then. Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable("document").addColumn("stamp_wait_started_at", "bigint").execute();
}
