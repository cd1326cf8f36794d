import type { Kysely } from "kysely";

// Frozen: the firm's court records provider credentials (decision 058), the password stored
// sealed. One per provider type per firm, kept by a unique index as well as by the API, so two
// saves at once cannot both win. Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable("provider_credential")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull().references("firm.id").onDelete("cascade"))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addColumn("provider_type", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("username", "text", (c) => c.notNull())
    .addColumn("password", "text")
    .addColumn("client_code", "text")
    .addColumn("redaction_agreed", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("provider_credential_type_idx").on("provider_credential").columns(["firm_id", "provider_type"]).unique().execute();
}
