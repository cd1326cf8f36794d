import { type Kysely, sql } from "kysely";

// Frozen: missed-notice reconciliation of ECFX Track. The firm says after how many hours an
// entry of a tracked case's docket feed without an e-mail notice is a missed notice, and who is
// told (its docketing team: at first the case-not-found recipients, who already look after
// notices that need a person). Each entry is checked once (checked_at; entries received before
// this version count as checked), and raises at most one item: the missed notice's key is the
// entry's. Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable("firm")
    .addColumn("missed_notice_hours", "integer", (c) => c.notNull().defaultTo(24))
    .execute();
  await db.schema
    .alterTable("firm")
    .addColumn("missed_notice_report_emails", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
  await sql`update firm set missed_notice_report_emails = case_not_found_report_emails`.execute(db);

  await db.schema.alterTable("case_docket_entry").addColumn("checked_at", "bigint").execute();
  await sql`update case_docket_entry set checked_at = created_at`.execute(db);
  // The entries still to check, found without reading those already checked.
  await db.schema.createIndex("case_docket_entry_unchecked").on("case_docket_entry").columns(["firm_id", "checked_at"]).execute();

  await db.schema
    .createTable("missed_notice")
    .addColumn("firm_id", "integer", (c) => c.notNull())
    .addColumn("case_id", "text", (c) => c.notNull())
    .addColumn("entry_key", "text", (c) => c.notNull())
    .addColumn("inbox_item_id", "text", (c) => c.notNull().unique())
    .addColumn("raised_at", "bigint", (c) => c.notNull())
    .addColumn("notice_item_id", "text")
    .addColumn("resolved_at", "bigint")
    .addPrimaryKeyConstraint("missed_notice_pk", ["firm_id", "case_id", "entry_key"])
    .execute();
  await db.schema.createIndex("missed_notice_open").on("missed_notice").columns(["firm_id", "resolved_at"]).execute();
}
