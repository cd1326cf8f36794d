import type { Kysely } from "kysely";

// Frozen: import jobs and the outcome of each imported line. Never imports application code.
// A job's progress lives here so that any API process can answer for it.

type Dialect = "sqlite" | "postgres";

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  const millis = "bigint";

  await db.schema
    .createTable("import_job")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("firm_id", "integer", (c) => c.notNull().references("firm.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("resource", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("sync", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("total_rows", "integer", (c) => c.notNull())
    .addColumn("processed_rows", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("rejected_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("deleted_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("message", "text")
    .addColumn("created_at", millis, (c) => c.notNull())
    .addColumn("updated_at", millis, (c) => c.notNull())
    .addColumn("finished_at", millis)
    .execute();
  await db.schema.createIndex("import_job_firm_idx").on("import_job").columns(["firm_id", "created_at"]).execute();

  await db.schema
    .createTable("import_job_row")
    .addColumn("job_id", "text", (c) => c.notNull().references("import_job.id").onDelete("cascade"))
    .addColumn("line", "integer", (c) => c.notNull())
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("record", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("reasons", "text", (c) => c.notNull().defaultTo("{}"))
    .addPrimaryKeyConstraint("import_job_row_pk", ["job_id", "line"])
    .execute();
  await db.schema.createIndex("import_job_row_outcome_idx").on("import_job_row").columns(["job_id", "outcome", "line"]).execute();
}
