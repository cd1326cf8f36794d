import type { Kysely } from "kysely";

// Frozen: this file must never change once released, and never imports application code.
// `dialect` decides the few types that differ between SQLite and PostgreSQL.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const blob = dialect === "postgres" ? "bytea" : "blob";
  const millis = "bigint";

  let firm = db.schema.createTable("firm");
  firm =
    dialect === "postgres" ? firm.addColumn("id", "serial", (c) => c.primaryKey()) : firm.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
  await firm
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("host_names", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("signon_type", "text", (c) => c.notNull().defaultTo("local"))
    .addColumn("created_at", millis, (c) => c.notNull())
    .addColumn("updated_at", millis, (c) => c.notNull())
    .addColumn("max_case_deletions_on_import", "integer", (c) => c.notNull().defaultTo(100))
    .addColumn("default_daily_cadence_delivery_time", "text", (c) => c.notNull().defaultTo("07:00"))
    .addColumn("public_document_access", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("manually_process_notices", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("manual_process_emails", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("store_notice_as_docket_text", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_email_attachment_size", "bigint", (c) => c.notNull().defaultTo(26214400))
    .addColumn("primary_color", "text", (c) => c.notNull().defaultTo("#1c4f8a"))
    .addColumn("secondary_color", "text", (c) => c.notNull().defaultTo("#c8a24a"))
    .addColumn("logo", blob)
    .addColumn("default_delivery_method", "text", (c) => c.notNull().defaultTo("PDF"))
    .addColumn("default_notification_cadence", "text", (c) => c.notNull().defaultTo("REALTIME"))
    .addColumn("internal_walls_enabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("storage_policy_hierarchy", "text", (c) => c.notNull().defaultTo('["firm","location","practice_group","client","matter","case"]'))
    .addColumn("storage_policy_id", "text")
    .addColumn("internal_walls_state", "text", (c) => c.notNull().defaultTo("unapplied"))
    .addColumn("prefers_combined_documents", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("default_email_template_id", "text")
    .addColumn("additional_receipt_emails", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("error_notification_emails", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("error_notification_level", "text", (c) => c.notNull().defaultTo("ERROR"))
    .addColumn("ignored_case_statuses", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("reply_to_email", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("wait_for_dms_attempt_to_notify", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("case_not_found_report_emails", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("web_preferences", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("default_time_zone", "text", (c) => c.notNull().defaultTo("America/New_York"))
    .addColumn("dms_failure_report_emails", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("import_warning_threshold", "integer", (c) => c.notNull().defaultTo(1000))
    .addColumn("entitled_features", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("accepted_email_domains", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("ignored_email_domains", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("extract_document_web_links", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_default", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("security_role")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull().references("firm.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("is_system_defined", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("permissions", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", millis, (c) => c.notNull())
    .addColumn("updated_at", millis, (c) => c.notNull())
    .addUniqueConstraint("security_role_firm_name_uq", ["firm_id", "name"])
    .execute();

  await db.schema
    .createTable("app_user")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull().references("firm.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("full_name", "text", (c) => c.notNull())
    .addColumn("display_name", "text", (c) => c.notNull())
    .addColumn("timekeeper_id", "text")
    .addColumn("security_role_id", "text", (c) => c.notNull().references("security_role.id"))
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("token_version", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", millis, (c) => c.notNull())
    .addColumn("updated_at", millis, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("app_user_firm_idx").on("app_user").columns(["firm_id", "email"]).execute();

  await db.schema
    .createTable("refresh_token")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("family_id", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("issued_at", millis, (c) => c.notNull())
    .addColumn("expires_at", millis, (c) => c.notNull())
    .addColumn("rotated_at", millis)
    .addColumn("revoked_at", millis)
    .execute();
  await db.schema.createIndex("refresh_token_family_idx").on("refresh_token").column("family_id").execute();
  await db.schema.createIndex("refresh_token_user_idx").on("refresh_token").column("user_id").execute();

  await db.schema
    .createTable("login_throttle")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("failures", "integer", (c) => c.notNull())
    .addColumn("window_start", millis, (c) => c.notNull())
    .addColumn("locked_until", millis)
    .execute();

  await db.schema
    .createTable("password_reset")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("app_user.id").onDelete("cascade"))
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("expires_at", millis, (c) => c.notNull())
    .addColumn("used_at", millis)
    .addColumn("created_at", millis, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("outbound_mail")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.references("firm.id").onDelete("cascade"))
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("to_addresses", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text_body", "text", (c) => c.notNull())
    .addColumn("html_body", "text", (c) => c.notNull())
    .addColumn("raw", "text", (c) => c.notNull())
    .addColumn("transport", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("error", "text")
    .addColumn("created_at", millis, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("outbound_mail_firm_idx").on("outbound_mail").columns(["firm_id", "created_at"]).execute();
}
