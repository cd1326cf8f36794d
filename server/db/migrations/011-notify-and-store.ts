import type { Kysely } from "kysely";

// Frozen: what notices going out need — preference groups, e-mail templates, notification rules,
// ethical walls, auto case creation rules, storage policies with their credentials, and the
// records of every notification and every storage attempt. Never imports application code.

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
      .addColumn("reference_id", "text")
      .addColumn("unique_key", "text");
  const byName = (table: string) => db.schema.createIndex(`${table}_name_idx`).on(table).columns(["firm_id", "name"]).execute();
  /** A list field kept as rows: owner, value, and the firm for scoping. */
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

  await entity("email_template")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("template", "text", (c) => c.notNull())
    .execute();
  await byName("email_template");

  await entity("timekeeper_group")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("delivery_method", "text", (c) => c.notNull())
    .addColumn("notification_cadence", "text", (c) => c.notNull())
    .addColumn("email_template_id", "text")
    .addColumn("daily_cadence_delivery_time", "text")
    .addColumn("receive_daily_activity_report", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("time_zone", "text", (c) => c.notNull())
    .execute();
  await byName("timekeeper_group");
  await db.schema.createIndex("timekeeper_group_idx").on("timekeeper").columns(["timekeeper_group_id"]).execute();

  await entity("generic_credential")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("field", "text", (c) => c.notNull())
    .execute();
  await byName("generic_credential");

  await entity("storage_policy")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("store_documents", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("store_email", "text", (c) => c.notNull().defaultTo("none"))
    .addColumn("document_path", "text")
    .addColumn("document_name", "text")
    .addColumn("document_properties", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("additional_storage_policy_id", "text")
    .addColumn("dms_credential_id", "text", (c) => c.notNull())
    .execute();
  await byName("storage_policy");
  // The hierarchy names six levels; matters and practice groups get their policy here.
  await db.schema.alterTable("matter").addColumn("storage_policy_id", "text").execute();
  await db.schema.alterTable("practice_group").addColumn("storage_policy_id", "text").execute();

  await entity("notification_rule")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("template", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("include_emails", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("exclude_emails", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
  await byName("notification_rule");

  await entity("ethical_wall")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("matter_id", "text")
    .addColumn("client_id", "text")
    .execute();
  await byName("ethical_wall");
  await link("ethical_wall_timekeeper", "wall_id", "timekeeper_id");
  await entity("auto_case_creation")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("party_email_domains", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("matter_id", "text")
    .addColumn("assignment_maintenance", "text", (c) => c.notNull().defaultTo("INITIAL_ONLY"))
    .addColumn("assignments_ignore_import_deletion", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await byName("auto_case_creation");
  await link("auto_case_creation_timekeeper", "rule_id", "timekeeper_id");
  // The rule that created a case, so ADD NEW keeps its timekeepers assigned as the rule grows.
  await db.schema.alterTable("court_case").addColumn("auto_case_creation_id", "text").execute();

  // Who was told about which inbox item, how, and whether it went out.
  await db.schema
    .createTable("notification")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull().references("firm.id").onDelete("cascade"))
    .addColumn("inbox_item_id", "text", (c) => c.notNull())
    .addColumn("timekeeper_id", "text")
    .addColumn("timekeeper_group_id", "text")
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("cadence", "text", (c) => c.notNull())
    .addColumn("delivery_method", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("outbound_mail_id", "text")
    .addColumn("digest_run_id", "text")
    .addColumn("created_at", millis, (c) => c.notNull())
    .addColumn("sent_at", millis)
    .execute();
  await db.schema.createIndex("notification_item_idx").on("notification").columns(["inbox_item_id"]).execute();
  await db.schema.createIndex("notification_pending_idx").on("notification").columns(["firm_id", "cadence", "status"]).execute();

  // One row per group, local day and kind: inserting it is how one worker claims a digest.
  await db.schema
    .createTable("digest_run")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("timekeeper_group_id", "text", (c) => c.notNull())
    .addColumn("local_date", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", millis, (c) => c.notNull())
    .addUniqueConstraint("digest_run_once", ["timekeeper_group_id", "local_date", "kind"])
    .execute();

  // Every attempt to file the notice or a document in a DMS.
  await db.schema
    .createTable("dms_record")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull().references("firm.id").onDelete("cascade"))
    .addColumn("inbox_item_id", "text", (c) => c.notNull())
    .addColumn("document_id", "text")
    .addColumn("storage_policy_id", "text", (c) => c.notNull())
    .addColumn("what", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("location", "text")
    .addColumn("error", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", millis, (c) => c.notNull())
    .addColumn("updated_at", millis, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("dms_record_item_idx").on("dms_record").columns(["inbox_item_id"]).execute();
  await db.schema.createIndex("dms_record_document_idx").on("dms_record").columns(["document_id"]).execute();

  await db.schema.alterTable("outbound_mail").addColumn("inbox_item_id", "text").execute();
  await db.schema.createIndex("outbound_mail_item_idx").on("outbound_mail").columns(["inbox_item_id"]).execute();
}
