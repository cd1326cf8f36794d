import type { Kysely } from "kysely";

// Frozen: where a filing on the firm's own file store intends its file, as a path below the
// firm's storage root, held by one record at most. Two filings choosing a name at once could both
// record the same free name; the unique index makes the second one choose again. Records from
// before keep no path (NULLs never clash). Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable("dms_record").addColumn("intended_path", "text").execute();
  await db.schema.createIndex("dms_record_intended_path_key").on("dms_record").columns(["firm_id", "intended_path"]).unique().execute();
}
