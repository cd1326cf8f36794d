import type { Kysely } from "kysely";

// Frozen: a stored file's record keeps the folder it was written under (relative to its firm's
// own storage root), so it is opened from there and not from the credential's current folder.
// Records from before stay without one. Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable("dms_record").addColumn("root", "text").execute();
}
