import type { Kysely } from "kysely";

// Frozen: whether a document's title is being asked of the firm's extraction provider
// (pending, extracted, failed), and why it failed, so filing waits for it and staff see why the
// document kept its name. Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable("document").addColumn("title_extraction", "text").execute();
  await db.schema.alterTable("document").addColumn("title_extraction_error", "text").execute();
}
