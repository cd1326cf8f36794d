import type { Kysely } from "kysely";

// Frozen: the parse result of a received message is kept with the parser version that made it,
// with the message's readable body (text, HTML, links), so notification, storage and the console
// read it instead of parsing the raw e-mail again. Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable("inbox_item").addColumn("parser_version", "integer").execute();
  await db.schema.alterTable("inbox_item").addColumn("message_body", "text").execute();
}
