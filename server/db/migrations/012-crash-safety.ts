import type { Kysely } from "kysely";

// Frozen: what a restart after a crash needs to finish work without doing it twice — where a
// file was meant to go and what it held, and the Message-ID a mail keeps when it is sent again.
// Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  // Written before the DMS write ("writing"), so a retry can find and adopt its own copy.
  await db.schema.alterTable("dms_record").addColumn("intended_location", "text").execute();
  await db.schema.alterTable("dms_record").addColumn("content_hash", "text").execute();
  await db.schema.alterTable("outbound_mail").addColumn("message_id", "text").execute();
  // The sweep looks for items that no job will move on.
  await db.schema.createIndex("job_kind_ref_idx").on("job").columns(["kind", "ref_id"]).execute();
}
