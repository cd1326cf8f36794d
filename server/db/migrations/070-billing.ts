import type { Kysely } from "kysely";

// Frozen: billing (spec §2 /billing, §3 service kinds, time units and currency). The installation's
// price list; each firm's service subscriptions at the prices of the day they began; invoices and
// credit notes, numbered from one counter so the numbers have no gaps, with their lines, never
// changed after issue; Checkout Sessions opened to pay one, and the payments recorded once per
// invoice. Amounts are integer cents. Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable("billing_price")
    .addColumn("service_kind", "text", (c) => c.primaryKey())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("time_unit", "text", (c) => c.notNull())
    .addColumn("per_document_cents", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("currency", "text", (c) => c.notNull().defaultTo("USD"))
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("firm_service")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("service_kind", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("time_unit", "text", (c) => c.notNull())
    .addColumn("per_document_cents", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("currency", "text", (c) => c.notNull().defaultTo("USD"))
    .addColumn("started_at", "bigint", (c) => c.notNull())
    .addColumn("ended_at", "bigint")
    .execute();
  await db.schema.createIndex("firm_service_firm").on("firm_service").columns(["firm_id", "service_kind", "started_at"]).execute();

  await db.schema
    .createTable("invoice_counter")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("last_number", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("invoice")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("number", "integer", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("issue_key", "text", (c) => c.notNull().unique())
    .addColumn("corrects_invoice_id", "text")
    .addColumn("month", "text", (c) => c.notNull())
    .addColumn("period_start", "bigint", (c) => c.notNull())
    .addColumn("period_end", "bigint", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull().defaultTo("USD"))
    .addColumn("total_cents", "integer", (c) => c.notNull())
    .addColumn("note", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("invoice_firm").on("invoice").columns(["firm_id", "month"]).execute();

  await db.schema
    .createTable("invoice_line")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("invoice_id", "text", (c) => c.notNull())
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("service_kind", "text", (c) => c.notNull())
    .addColumn("case_id", "text")
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("quantity", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("invoice_line_invoice").on("invoice_line").columns(["invoice_id", "position"]).execute();

  await db.schema
    .createTable("invoice_checkout")
    .addColumn("session_id", "text", (c) => c.primaryKey())
    .addColumn("invoice_id", "text", (c) => c.notNull())
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("invoice_payment")
    .addColumn("invoice_id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("session_id", "text", (c) => c.notNull().unique())
    .addColumn("event_id", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("paid_at", "bigint", (c) => c.notNull())
    .execute();
}
