import type { Kysely } from "kysely";

// Frozen: jurisdiction groups, the firm's jurisdictions gathered under one name for the
// jurisdiction preferences. Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable("jurisdiction_group")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull().references("firm.id").onDelete("cascade"))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("jurisdiction_group_name_idx").on("jurisdiction_group").columns(["firm_id", "name"]).execute();
  await db.schema
    .createTable("jurisdiction_group_jurisdiction")
    .addColumn("group_id", "text", (c) => c.notNull())
    .addColumn("jurisdiction_id", "text", (c) => c.notNull())
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("jurisdiction_group_jurisdiction_pk", ["group_id", "jurisdiction_id"])
    .execute();
  await db.schema.createIndex("jurisdiction_group_jurisdiction_value_idx").on("jurisdiction_group_jurisdiction").column("jurisdiction_id").execute();
}
