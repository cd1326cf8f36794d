import type { Kysely } from "kysely";

// Frozen: the firm's largest import file, in bytes (20 MB unless the firm sets another).
// Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable("firm")
    .addColumn("max_import_size", "integer", (c) => c.notNull().defaultTo(20 * 1024 * 1024))
    .execute();
}
