import type { Kysely } from "kysely";

// Frozen: the firm's document processing settings and its ordered jurisdiction preferences,
// with the groups and notification rules each names, and the preference that applied to an
// inbox item. Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  const millis = "bigint";
  const entity = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("firm_id", "integer", (c) => c.notNull().references("firm.id").onDelete("cascade"))
      .addColumn("created_at", millis, (c) => c.notNull())
      .addColumn("updated_at", millis, (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull());
  const link = async (table: string, owner: string, value: string) => {
    await db.schema
      .createTable(table)
      .addColumn(owner, "text", (c) => c.notNull())
      .addColumn(value, "text", (c) => c.notNull())
      .addColumn("firm_id", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, [owner, value])
      .execute();
    await db.schema.createIndex(`${table}_value_idx`).on(table).column(value).execute();
  };

  await entity("document_processing")
    .addColumn("wait_for_stamp", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_minutes_wait_for_stamp", "integer")
    .addColumn("release_unstamped_while_waiting", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("minutes_wait_before_unstamped_release", "integer")
    .addColumn("extraction_enabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("extraction_provider", "text", (c) => c.notNull().defaultTo("NO_PROVIDER"))
    .addColumn("billing_party", "text", (c) => c.notNull().defaultTo("ECFX"))
    .addColumn("customer_id", "text")
    .addColumn("queue_name", "text")
    .addColumn("extraction_auth_path", "text")
    .addColumn("extraction_client_id", "text")
    .addColumn("extraction_client_secret", "text")
    .addColumn("extraction_client_url", "text")
    .addColumn("extraction_customer_id", "text")
    .addColumn("extraction_queue_name", "text")
    .execute();
  await db.schema.createIndex("document_processing_name_idx").on("document_processing").columns(["firm_id", "name"]).execute();

  await entity("jurisdiction_preference")
    .addColumn("order", "integer", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("auto_case_creation_id", "text")
    .addColumn("document_processing_id", "text")
    .addColumn("party_email_domains", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
  await db.schema.createIndex("jurisdiction_preference_order_idx").on("jurisdiction_preference").columns(["firm_id", "order"]).execute();
  await db.schema.createIndex("jurisdiction_preference_name_idx").on("jurisdiction_preference").columns(["firm_id", "name"]).execute();
  await link("jurisdiction_preference_group", "preference_id", "group_id");
  await link("jurisdiction_preference_rule", "preference_id", "rule_id");

  await db.schema.alterTable("inbox_item").addColumn("jurisdiction_preference_id", "text").execute();
}
