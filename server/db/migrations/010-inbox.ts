import type { Kysely } from "kysely";

// Frozen: the inbox (received messages), the job queue, the event log, envelopes, documents and
// the content-addressed blobs they point to. Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const millis = "bigint";
  const bytes = dialect === "postgres" ? "bytea" : "blob";

  await db.schema
    .createTable("inbox_address")
    .addColumn("address", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull().references("firm.id").onDelete("cascade"))
    .addColumn("created_at", millis, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("inbox_item")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull().references("firm.id").onDelete("cascade"))
    .addColumn("created_at", millis, (c) => c.notNull())
    .addColumn("updated_at", millis, (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("action_required", "text", (c) => c.notNull().defaultTo("NONE"))
    .addColumn("disposition", "text", (c) => c.notNull().defaultTo("No Disposition"))
    .addColumn("disposition_text", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("reason", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("source_type", "text", (c) => c.notNull().defaultTo("EMAIL"))
    .addColumn("raw_content", bytes, (c) => c.notNull())
    .addColumn("raw_size", "integer", (c) => c.notNull())
    .addColumn("message_id", "text")
    .addColumn("sender", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("recipients", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("subject", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("snippet", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("parsed", "text")
    .addColumn("docket_index", "integer")
    .addColumn("parent_id", "text", (c) => c.references("inbox_item.id"))
    .addColumn("duplicate_of_id", "text", (c) => c.references("inbox_item.id"))
    .addColumn("case_id", "text", (c) => c.references("court_case.id"))
    .addColumn("dms_status", "text", (c) => c.notNull().defaultTo("new"))
    .addColumn("hidden", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("inbox_item_firm_created_idx").on("inbox_item").columns(["firm_id", "created_at"]).execute();
  await db.schema.createIndex("inbox_item_firm_status_idx").on("inbox_item").columns(["firm_id", "status"]).execute();
  await db.schema.createIndex("inbox_item_message_idx").on("inbox_item").columns(["firm_id", "message_id"]).execute();
  await db.schema.createIndex("inbox_item_parent_idx").on("inbox_item").column("parent_id").execute();

  await db.schema
    .createTable("job")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("ref_id", "text", (c) => c.notNull())
    .addColumn("run_at", millis, (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("locked_until", millis)
    .addColumn("locked_by", "text")
    .addColumn("last_error", "text")
    .addColumn("created_at", millis, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("job_run_idx").on("job").columns(["run_at"]).execute();
  await db.schema.createIndex("job_ref_idx").on("job").columns(["ref_id"]).execute();

  await db.schema
    .createTable("event_log")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("inbox_item_id", "text")
    .addColumn("level", "text", (c) => c.notNull())
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("detail", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", millis, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("event_log_item_idx").on("event_log").columns(["inbox_item_id", "created_at"]).execute();
  await db.schema.createIndex("event_log_firm_idx").on("event_log").columns(["firm_id", "created_at"]).execute();

  await db.schema
    .createTable("envelope")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull().references("firm.id").onDelete("cascade"))
    .addColumn("inbox_item_id", "text", (c) => c.notNull().references("inbox_item.id"))
    .addColumn("case_id", "text", (c) => c.notNull().references("court_case.id"))
    .addColumn("ecfx_jurisdiction_id", "text", (c) => c.references("ecfx_jurisdiction.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("date", "text")
    .addColumn("court_envelope_id", "text")
    .addColumn("filed_by", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("service_contacts", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("docket_text", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", millis, (c) => c.notNull())
    .addColumn("updated_at", millis, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("envelope_case_idx").on("envelope").columns(["firm_id", "case_id"]).execute();
  await db.schema.createIndex("envelope_item_idx").on("envelope").column("inbox_item_id").execute();

  await db.schema
    .createTable("blob")
    .addColumn("sha256", "text", (c) => c.primaryKey())
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("created_at", millis, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("document")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull().references("firm.id").onDelete("cascade"))
    .addColumn("envelope_id", "text", (c) => c.notNull().references("envelope.id"))
    .addColumn("processed_from_id", "text", (c) => c.notNull().references("inbox_item.id"))
    .addColumn("number", "integer", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("date", "text")
    .addColumn("sealed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("court_document_id", "text")
    .addColumn("url", "text")
    .addColumn("file_id", "text", (c) => c.references("blob.sha256"))
    .addColumn("fetch_status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("fetch_error", "text")
    .addColumn("uploaded", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("stamped_by_court", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("dms_status", "text", (c) => c.notNull().defaultTo("new"))
    .addColumn("created_at", millis, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("document_envelope_idx").on("document").column("envelope_id").execute();
  await db.schema.createIndex("document_court_idx").on("document").columns(["firm_id", "court_document_id"]).execute();
}
