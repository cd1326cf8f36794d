import type { Kysely } from "kysely";

// Frozen: the firm's webhooks (where events are posted, which ones, in which shape, with a
// sealed signing secret) and the log of every delivery with its attempts. Never imports
// application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  const millis = "bigint";
  await db.schema
    .createTable("webhook")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull().references("firm.id").onDelete("cascade"))
    .addColumn("created_at", millis, (c) => c.notNull())
    .addColumn("updated_at", millis, (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("events", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("type", "text", (c) => c.notNull().defaultTo("STANDARD"))
    .addColumn("payload_version", "text", (c) => c.notNull().defaultTo("1"))
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("secret_sealed", "text", (c) => c.notNull().defaultTo(""))
    // The creator may see the secret made with the webhook once; a rotation shows its own at once.
    .addColumn("secret_shown", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_by", "text")
    // Since when every delivery attempt has failed; null after any success.
    .addColumn("failing_since", millis)
    .execute();
  await db.schema.createIndex("webhook_name_idx").on("webhook").columns(["firm_id", "name"]).execute();

  await db.schema
    .createTable("webhook_delivery")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull().references("firm.id").onDelete("cascade"))
    .addColumn("webhook_id", "text", (c) => c.notNull().references("webhook.id").onDelete("cascade"))
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("event_id", "text", (c) => c.notNull())
    .addColumn("payload_version", "text", (c) => c.notNull())
    .addColumn("inbox_item_id", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("last_status_code", "integer")
    .addColumn("last_error", "text")
    .addColumn("last_response", "text")
    .addColumn("next_attempt_at", millis)
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", millis, (c) => c.notNull())
    .addColumn("updated_at", millis, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webhook_delivery_webhook_idx").on("webhook_delivery").columns(["webhook_id", "created_at"]).execute();
}
