import type { Kysely } from "kysely";

// Frozen: the firm's own list of court and provider senders (addresses or domains whose mail is
// never ignored unless it is positively something else), and the identity of the notice an item
// carries (court, docket, entry), by which a person's reply or forward of a notice finds the
// original in the firm's inbox (decision 092). Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable("firm")
    .addColumn("court_mail_senders", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
  await db.schema.alterTable("inbox_item").addColumn("notice_key", "text").execute();
  await db.schema.createIndex("inbox_item_notice_key_idx").on("inbox_item").columns(["firm_id", "notice_key"]).execute();
}
