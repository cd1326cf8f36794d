import type { Kysely } from "kysely";

// Frozen: a filing that finds a copy at the location its interrupted attempt intended asks
// whether another record intends that location before adopting it. The firm leads, as every
// read does, and the location narrows it to a record or two. Never imports application code.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.createIndex("dms_record_intended_location_idx").on("dms_record").columns(["firm_id", "intended_location"]).execute();
}
