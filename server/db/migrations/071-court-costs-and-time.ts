import type { Kysely } from "kysely";

// Frozen: what the firm passes on to its clients (decision 113). Each court cost ECFX incurs for
// a firm (a PACER document fetched signed in; a tracked case's fees) is a cost record on the case
// and its matter and client, once per source; the firm's billing settings (its cost code, the
// LEDES law firm id, minutes recorded per notice by timekeeper title). Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable("billing_setting")
    .addColumn("firm_id", "integer", (c) => c.primaryKey())
    .addColumn("cost_code", "text")
    .addColumn("law_firm_id", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("review_minutes", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("court_cost")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("source_key", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("case_id", "text")
    .addColumn("matter_id", "text")
    .addColumn("client_id", "text")
    .addColumn("document_id", "text")
    .addColumn("incurred_at", "bigint", (c) => c.notNull())
    .addColumn("pages", "integer")
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("cost_code", "text")
    .addUniqueConstraint("court_cost_source", ["firm_id", "source_key"])
    .execute();
  await db.schema.createIndex("court_cost_firm_time").on("court_cost").columns(["firm_id", "incurred_at"]).execute();
}
