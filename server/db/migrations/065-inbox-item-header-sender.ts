import type { Kysely } from "kysely";

// Frozen: the address in a received message's From header, beside the envelope sender (`sender`,
// the SMTP MAIL FROM), so the inbox shows who wrote the message and not only which mailbox passed
// it on (decision 104). Messages received before keep an empty value. Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable("inbox_item")
    .addColumn("from_address", "text", (c) => c.notNull().defaultTo(""))
    .execute();
}
