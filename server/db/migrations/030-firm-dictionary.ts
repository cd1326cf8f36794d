import type { Kysely } from "kysely";

// Frozen: a firm's own words for entries of the catalogue (namespace + key), and a version on the
// firm that every change bumps, so a process knows its kept copy is stale without reading the
// entries. Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable("dictionary_entry")
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("namespace", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addColumn("updated_by", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("dictionary_entry_pk", ["firm_id", "namespace", "key"])
    .execute();
  await db.schema
    .alterTable("firm")
    .addColumn("dictionary_version", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}
