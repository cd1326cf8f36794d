import { type Kysely, sql } from "kysely";

// Frozen: the periodic sweep looks for mail recorded but never sent ("sending" with no job to
// send it). Only those few rows are in the index, so the sweep does not read every mail ever
// sent. Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.createIndex("outbound_mail_sending_idx").on("outbound_mail").column("purpose").where(sql.ref("status"), "=", sql.lit("sending")).execute();
}
